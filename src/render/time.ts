/**
 * Timestamps of the service are opaque strings (DESIGN.md): parsed leniently, shown with Slack's
 * date formatting when they parse, shown raw (escaped) when they do not. Never throws.
 */
import { escapeMrkdwn } from './text.ts';

/** Milliseconds since the epoch, or undefined when the string is no recognisable time. */
export function parseTimestamp(raw: string | null | undefined): number | undefined {
  if (typeof raw !== 'string') return undefined;
  const text = raw.trim();
  if (!text) return undefined;
  let ms: number;
  if (/^\d{10}(\.\d+)?$/.test(text)) ms = Number(text) * 1000;
  else if (/^\d{13}$/.test(text)) ms = Number(text);
  else ms = Date.parse(text);
  // Year 1970 to 9999: anything else is a misreading.
  return Number.isFinite(ms) && ms >= 0 && ms < 253402300800000 ? ms : undefined;
}

const UNITS: Array<[number, string]> = [
  [365 * 24 * 3600, 'year'],
  [30 * 24 * 3600, 'month'],
  [7 * 24 * 3600, 'week'],
  [24 * 3600, 'day'],
  [3600, 'hour'],
  [60, 'minute'],
];

/** "3 hours ago", "in 2 days", "just now". */
export function relativeTime(ms: number, now: Date): string {
  const seconds = Math.round((now.getTime() - ms) / 1000);
  const abs = Math.abs(seconds);
  for (const [size, unit] of UNITS) {
    if (abs >= size) {
      const n = Math.floor(abs / size);
      const phrase = `${n} ${unit}${n === 1 ? '' : 's'}`;
      return seconds >= 0 ? `${phrase} ago` : `in ${phrase}`;
    }
  }
  return 'just now';
}

/** "2024-05-01 14:03 UTC" */
export function utcText(ms: number): string {
  return `${new Date(ms).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

/** A timestamp as plain text: relative to `now` when given, else UTC; raw when unparseable. */
export function plainTime(raw: string | null | undefined, now?: Date): string {
  const ms = parseTimestamp(raw);
  if (ms === undefined) return typeof raw === 'string' ? raw.trim() : '';
  return now ? relativeTime(ms, now) : utcText(ms);
}

/** The format every instant the bot shows uses: "Nov 23, 2026 at 9:00 AM" in the reader's zone. */
export const DATE_FORMAT = '{date_short_pretty} at {time}';

/**
 * An instant as a Slack date token, `<!date^unix^{date_short_pretty} at {time}|fallback>`: each
 * reader sees it in their own time zone; the fallback (notifications, old clients) is UTC and
 * says so.
 */
export function slackDate(ms: number, format: string = DATE_FORMAT): string {
  return `<!date^${Math.floor(ms / 1000)}^${format}|${utcText(ms)}>`;
}

/**
 * A service timestamp as mrkdwn: a date token ({@link slackDate}) when it parses, the raw string
 * escaped otherwise, '' when absent. The fallback is never relative: it would go stale.
 */
export function slackTime(raw: string | null | undefined): string {
  const ms = parseTimestamp(raw);
  if (ms === undefined) return typeof raw === 'string' ? escapeMrkdwn(raw.trim()) : '';
  return slackDate(ms);
}
