/** Digest schedules as job data: words → cron, checks, next runs across DST. */
import { describe, expect, it } from 'vitest';
import {
  canonicalTimeZone,
  nextRuns,
  parseSchedule,
  parseTime,
  patternProblem,
} from '../../src/operations/schedule.ts';

const iso = (ms: number) => new Date(ms).toISOString();

describe('parseSchedule', () => {
  it.each([
    ['hourly', '0 * * * *', 'every hour'],
    ['every hour', '0 * * * *', 'every hour'],
    ['daily at 17:30', '30 17 * * *', 'every day at 17:30'],
    ['every day at 9', '0 9 * * *', 'every day at 09:00'],
    ['every weekday at 9:00', '0 9 * * 1-5', 'every weekday at 09:00'],
    ['Weekdays at 8am', '0 8 * * 1-5', 'every weekday at 08:00'],
    ['every monday at 10am', '0 10 * * 1', 'every Monday at 10:00'],
    ['every Monday and thursday at 9:30pm', '30 21 * * 1,4', 'every Monday and Thursday at 21:30'],
    ['weekly on friday at 16:00', '0 16 * * 5', 'every Friday at 16:00'],
    ['mondays', '0 9 * * 1', 'every Monday at 09:00'],
    ['every weekend at noon', '0 12 * * 0,6', 'every Saturday and Sunday at 12:00'],
    ['0 9 * * 1-5', '0 9 * * 1-5', 'at 09:00, Monday through Friday'],
    ['30 8 1 * *', '30 8 1 * *', 'at 08:30, on day 1 of the month'],
  ])('%s → %s', (words, pattern, label) => {
    expect(parseSchedule(words)).toEqual({ ok: true, pattern, label });
  });

  it.each([
    ['', /Say when/],
    ['every 2 hours', /did not understand/],
    ['daily at 25:00', /could not read the time/],
    ['*/5 * * * *', /at most once an hour/],
    ['0 9 * * 8', /not valid/],
    ['61 9 * * *', /not valid/],
  ])('refuses %j', (words, error) => {
    const parsed = parseSchedule(words);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.error).toMatch(error);
  });

  it('reads times of day', () => {
    expect(parseTime('12am')).toEqual({ hour: 0, minute: 0 });
    expect(parseTime('12:15pm')).toEqual({ hour: 12, minute: 15 });
    expect(parseTime('midnight')).toEqual({ hour: 0, minute: 0 });
    expect(parseTime('13pm')).toBeUndefined();
    expect(parseTime('9:75')).toBeUndefined();
  });

  it('canonicalises time zones and refuses unknown ones', () => {
    expect(canonicalTimeZone('europe/paris')).toBe('Europe/Paris');
    expect(canonicalTimeZone('Mars/Olympus')).toBeUndefined();
    expect(patternProblem('0 9 * * *', 'Europe/Paris')).toBeUndefined();
  });
});

describe('next runs in Europe/Paris across DST', () => {
  it('spring forward (2026-03-29): 09:00 local is 08:00Z before and 07:00Z after', () => {
    const runs = nextRuns('0 9 * * *', 'Europe/Paris', Date.parse('2026-03-27T12:00:00Z'), 4);
    expect(runs.map(iso)).toEqual([
      '2026-03-28T08:00:00.000Z',
      '2026-03-29T07:00:00.000Z',
      '2026-03-30T07:00:00.000Z',
      '2026-03-31T07:00:00.000Z',
    ]);
  });

  it('fall back (2026-10-25): 09:00 local is 07:00Z before and 08:00Z after', () => {
    const runs = nextRuns('0 9 * * 1-5', 'Europe/Paris', Date.parse('2026-10-22T12:00:00Z'), 3);
    // Friday 23rd, then Monday 26th (the weekend carries the change).
    expect(runs.map(iso)).toEqual([
      '2026-10-23T07:00:00.000Z',
      '2026-10-26T08:00:00.000Z',
      '2026-10-27T08:00:00.000Z',
    ]);
  });

  it('a time that happens twice on fall-back day runs once', () => {
    const runs = nextRuns('30 2 * * *', 'Europe/Paris', Date.parse('2026-10-24T12:00:00Z'), 2);
    expect(runs.map(iso)).toEqual(['2026-10-25T00:30:00.000Z', '2026-10-26T01:30:00.000Z']);
  });
});
