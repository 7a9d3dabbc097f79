/** The slots of digest scheduler ticks. */
import { describe, expect, it } from 'vitest';
import { previousRun, SLOT_SKEW_MS, slotOf, tickOf } from '../../src/jobs/cron.ts';

describe('slots', () => {
  const pattern = '0 9 * * *';
  const tz = 'Europe/Paris';
  const before = Date.parse('2026-03-28T08:00:00Z');
  const after = Date.parse('2026-03-29T07:00:00Z');

  it('a tick on its instant is its own slot, on both sides of the change', () => {
    expect(slotOf(pattern, tz, before)).toBe(before);
    expect(slotOf(pattern, tz, after)).toBe(after);
  });

  it('a late tick (clamped, re-delivered) and a slightly early one round to the same slot', () => {
    expect(slotOf(pattern, tz, after + 37 * 60_000)).toBe(after);
    expect(slotOf(pattern, tz, after - SLOT_SKEW_MS + 1)).toBe(after);
    expect(slotOf(pattern, tz, after - 60_000)).toBe(before);
  });

  it('the first window starts at the run before, 23 hours across spring-forward', () => {
    expect(previousRun(pattern, tz, after)).toBe(before);
    expect(after - before).toBe(23 * 3600_000);
  });

  it('the tick of a scheduler job: prevMillis, else the repeat id, else timestamp + delay', () => {
    expect(
      tickOf({
        id: 'repeat:T-digest-d1:1795420800000',
        timestamp: 1,
        delay: 2,
        opts: { prevMillis: 1795420800000 },
      }),
    ).toBe(1795420800000);
    expect(tickOf({ id: 'repeat:T-digest-d1:1795420800000', timestamp: 1, delay: 2, opts: {} })).toBe(
      1795420800000,
    );
    expect(tickOf({ id: 'x', timestamp: 1000, delay: 500, opts: { repeatJobKey: 'T-digest-d1' } })).toBe(
      1500,
    );
    expect(tickOf({ id: 'op-123', timestamp: 1000, delay: 0, opts: {} })).toBeUndefined();
  });
});
