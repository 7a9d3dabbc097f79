/**
 * A digest's schedule as job data: words or cron → a cron pattern and its label, the check that
 * a pattern is fit for a digest, time zone names, and the next runs of a pattern. Next-run
 * computation is cron-parser's (the library BullMQ's own pattern schedulers use), so what we
 * show and what BullMQ runs agree, DST included. Pure; the command grammar and the digest
 * processors both use it, and jobs/cron.ts builds the slots of scheduler ticks on it.
 */
import { CronExpressionParser } from 'cron-parser';
import cronstrue from 'cronstrue';

/** Digests run at most this often: more often is spam, not a digest. */
export const MIN_INTERVAL_MS = 60 * 60_000;

export type ScheduleParse = { ok: true; pattern: string; label: string } | { ok: false; error: string };

/** True for an IANA time zone name this runtime knows (`Europe/Paris`, `UTC`). */
export function isTimeZone(tz: string): boolean {
  if (!/^[A-Za-z][A-Za-z0-9_+\-/]{0,63}$/.test(tz)) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

/** The runtime's canonical spelling of a time zone (`europe/paris` → `Europe/Paris`), or undefined. */
export function canonicalTimeZone(tz: string): string | undefined {
  if (!isTimeZone(tz)) return undefined;
  return new Intl.DateTimeFormat('en-US', { timeZone: tz }).resolvedOptions().timeZone;
}

const DAYS: Record<string, number> = {
  sunday: 0,
  monday: 1,
  tuesday: 2,
  wednesday: 3,
  thursday: 4,
  friday: 5,
  saturday: 6,
};
const DAY_NAMES = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'];

function dayOf(word: string): number | undefined {
  const w = word.toLowerCase().replace(/s$/, '');
  for (const [name, n] of Object.entries(DAYS)) {
    if (w === name || (w.length >= 3 && name.startsWith(w))) return n;
  }
  return undefined;
}

/** `9`, `9:00`, `17:30`, `10am`, `10:30 pm`, `noon`, `midnight` → hour and minute. */
export function parseTime(text: string): { hour: number; minute: number } | undefined {
  const t = text.trim().toLowerCase().replace(/\s+/g, '');
  if (t === 'noon') return { hour: 12, minute: 0 };
  if (t === 'midnight') return { hour: 0, minute: 0 };
  const m = /^(\d{1,2})(?:[:h.](\d{2}))?(am|pm)?$/.exec(t);
  if (!m) return undefined;
  let hour = Number(m[1]);
  const minute = m[2] === undefined ? 0 : Number(m[2]);
  const half = m[3];
  if (minute > 59) return undefined;
  if (half) {
    if (hour < 1 || hour > 12) return undefined;
    hour = (hour % 12) + (half === 'pm' ? 12 : 0);
  } else if (hour > 23) return undefined;
  return { hour, minute };
}

const two = (n: number) => String(n).padStart(2, '0');

/** A 5-field cron pattern, as a person would type it. */
const CRON_SHAPE = /^[\d*/,\-?A-Za-z]+(\s+[\d*/,\-?A-Za-z]+){4}$/;

/**
 * A schedule in words or cron syntax → a cron pattern and a label.
 * Words: `hourly`, `daily at 17:30`, `every day at 9`, `every weekday at 9:00`, `weekdays at 8am`,
 * `every monday at 10am`, `every monday and thursday at 9:30`, `weekly on friday at 16:00`,
 * `every weekend at 10`. Cron: five fields, e.g. `0 9 * * 1-5`. Without a time, 09:00.
 */
export function parseSchedule(input: string): ScheduleParse {
  const text = input.trim().replace(/\s+/g, ' ');
  if (text === '')
    return {
      ok: false,
      error: 'Say when: e.g. `every weekday at 9:00`, `daily at 17:30`, `hourly`, or cron `0 9 * * 1-5`.',
    };
  if (CRON_SHAPE.test(text) && /^[\d*]/.test(text)) return checkPattern(text, cronLabel(text));

  const lower = text.toLowerCase();
  if (/^(hourly|every hour)$/.test(lower)) return checkPattern('0 * * * *', 'every hour');

  const at = /^(.*?)(?:\s+at\s+(.+))?$/.exec(lower);
  const what = (at?.[1] ?? lower).trim();
  const timeText = at?.[2];
  const time = timeText === undefined ? { hour: 9, minute: 0 } : parseTime(timeText);
  if (!time)
    return {
      ok: false,
      error: `I could not read the time \`${timeText}\`: write it like \`9:00\`, \`17:30\` or \`10am\`.`,
    };
  const hhmm = `${two(time.hour)}:${two(time.minute)}`;
  const cron = (dow: string) => `${time.minute} ${time.hour} * * ${dow}`;

  if (/^(daily|every day|each day|everyday)$/.test(what))
    return checkPattern(cron('*'), `every day at ${hhmm}`);
  if (/^(every weekday|weekdays|each weekday|on weekdays)$/.test(what)) {
    return checkPattern(cron('1-5'), `every weekday at ${hhmm}`);
  }
  if (/^(every weekend|weekends|on weekends)$/.test(what)) {
    return checkPattern(cron('0,6'), `every Saturday and Sunday at ${hhmm}`);
  }
  const days =
    /^(?:every|each|on|weekly on)\s+(.+)$/.exec(what)?.[1] ?? (/^[a-z]+days?$/.test(what) ? what : undefined);
  if (days !== undefined) {
    const words = days.split(/\s*(?:,|\band\b|&)\s*/).filter(Boolean);
    const numbers = words.map(dayOf);
    if (numbers.length > 0 && numbers.every((n): n is number => n !== undefined)) {
      const unique = [...new Set(numbers)].sort((a, b) => a - b);
      const names = unique.map((n) => DAY_NAMES[n]!.replace(/^./, (c) => c.toUpperCase()));
      const label = names.length === 1 ? names[0]! : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
      return checkPattern(cron(unique.join(',')), `every ${label} at ${hhmm}`);
    }
  }
  return {
    ok: false,
    error: `I did not understand the schedule \`${text}\`. Try \`every weekday at 9:00\`, \`daily at 17:30\`, \`every monday at 10am\`, \`hourly\`, or cron \`0 9 * * 1-5\`.`,
  };
}

/**
 * A cron pattern in words ("at 09:00, Monday through Friday"), by cronstrue; the pattern itself
 * when cronstrue cannot read it (then cron-parser's check explains why).
 */
export function cronLabel(pattern: string): string {
  try {
    const words = cronstrue.toString(pattern, {
      use24HourTimeFormat: true,
      throwExceptionOnParseError: true,
    });
    return words.charAt(0).toLowerCase() + words.slice(1);
  } catch {
    return `cron ${pattern}`;
  }
}

function checkPattern(pattern: string, label: string): ScheduleParse {
  const problem = patternProblem(pattern);
  return problem ? { ok: false, error: problem } : { ok: true, pattern, label };
}

/** Why a 5-field pattern is not usable for a digest, or undefined when it is. */
export function patternProblem(pattern: string, tz = 'UTC'): string | undefined {
  if (pattern.trim().split(/\s+/).length !== 5)
    return 'A cron schedule has five fields: minute hour day month weekday.';
  try {
    const runs = nextRuns(pattern, tz, Date.UTC(2026, 0, 1), 50);
    if (runs.length === 0) return 'That schedule never runs.';
    for (let i = 1; i < runs.length; i++) {
      if (runs[i]! - runs[i - 1]! < MIN_INTERVAL_MS) return 'A digest runs at most once an hour.';
    }
  } catch (error) {
    return `That cron schedule is not valid: ${error instanceof Error ? error.message : String(error)}.`;
  }
  return undefined;
}

/** The next `count` run instants (epoch ms) strictly after `fromMs`. */
export function nextRuns(pattern: string, tz: string, fromMs: number, count = 1): number[] {
  const it = CronExpressionParser.parse(pattern, { currentDate: new Date(fromMs), tz });
  const out: number[] = [];
  for (let i = 0; i < count && it.hasNext(); i++) out.push(it.next().getTime());
  return out;
}
