/**
 * The grammar of the slash command, as a pure parser: text in, a command or a worded error out.
 * The subcommands, their words and their usage are the table in subcommands/index.ts; this
 * file finds the entry the first word names and reads the rest with it.
 */
import { TEXT_MAX } from '../../../operations/limits.ts';
import { type Command, SUBCOMMAND_NAMES, subcommandNamed } from './subcommands/index.ts';

export type { Command };

export type ParseResult = { ok: true; command: Command } | { ok: false; error: string; usage?: string };

/** A command read, with the words after its subcommand (and a digest's action) as typed: what an audit records. */
export interface ReadCommand {
  parsed: ParseResult;
  detail: string;
}

/** The subcommands, aliases included, in the help's order. */
export const SUBCOMMANDS = SUBCOMMAND_NAMES;

/**
 * The usage of a subcommand, for its errors: the syntax lines of its help, so what an error
 * shows and what the help shows are one text.
 */
export function usage(command: string, sub: string): string {
  const lines = (subcommandNamed(sub)?.help ?? []).map((line) => `${command} ${line.syntax}`);
  return lines.length > 0 ? lines.join('   or   ') : `${command} help`;
}

export function parseCommand(rawText: string, command = '/collab'): ParseResult {
  return readCommand(rawText, command).parsed;
}

export function readCommand(rawText: string, command = '/collab'): ReadCommand {
  const text = rawText.replace(/\s+/g, ' ').trim();
  if (text === '') return { parsed: { ok: true, command: { kind: 'help' } }, detail: '' };
  if (text.length > TEXT_MAX) {
    return {
      parsed: {
        ok: false,
        error: `That is ${text.length.toLocaleString('en')} characters; the limit is ${TEXT_MAX.toLocaleString('en')}. Shorten it, or use \`${command} post\` with no text to write in a form.`,
      },
      detail: '',
    };
  }
  const [head = '', ...args] = text.split(' ');
  const sub = subcommandNamed(head);
  if (!sub) return { parsed: unknown(head, command), detail: '' };
  const read = sub.read(args);
  const parsed: ParseResult =
    typeof read === 'string'
      ? { ok: false, error: read, usage: usage(command, sub.name) }
      : { ok: true, command: read as Command };
  return { parsed, detail: sub.detail(args) };
}

/** A first word that names no subcommand: the closest one, and where to see them all. */
function unknown(head: string, command: string): ParseResult {
  const guess = closest(head.toLowerCase());
  return {
    ok: false,
    error: `I don't know \`${head}\`.${guess ? ` Did you mean \`${command} ${guess}\`?` : ''} See \`${command} help\` for everything I can do.`,
  };
}

function closest(word: string): string | undefined {
  let best: { sub: string; d: number } | undefined;
  for (const sub of SUBCOMMANDS) {
    const d = distance(word, sub);
    if (d <= 2 && (!best || d < best.d)) best = { sub, d };
  }
  return best?.sub;
}

function distance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let prev = row[0]!;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const tmp = row[j]!;
      row[j] = Math.min(row[j]! + 1, row[j - 1]! + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = tmp;
    }
  }
  return row[b.length]!;
}
