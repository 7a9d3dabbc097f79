/**
 * The table of the slash command: every subcommand, grouped and ordered as the help shows them.
 * Each entry holds its words (parser), its plans (the job to enqueue, or the answer given in
 * place), and its help lines (whose syntaxes are the usage its errors show). A new subcommand
 * is one entry here and its processor.
 */
import type { HelpGroup } from '../../../../render/help.ts';
import { type Kinded, type Subcommand, subcommand } from '../subcommand.ts';
import { channels, members, posts } from './browse.ts';
import { follow, link, notify, unfollow, unlink } from './channel.ts';
import { digest } from './digest.ts';
import { dm, thread } from './messages.ts';
import { post, reply, resolve, unresolve } from './posts.ts';

export const help = subcommand<{ kind: 'help' }>({
  name: 'help',
  shorthands: ['?'],
  help: [{ syntax: 'help', description: 'this help' }],
  read: () => ({ kind: 'help' }),
  plan: { help: () => ({ answer: 'help' }) },
});

export const TABLE = [
  { title: ':memo: Posts', subcommands: [post, resolve, unresolve, reply] },
  { title: ':speech_balloon: Messages', subcommands: [dm, thread] },
  { title: ':mag: Browse', subcommands: [posts, channels, members] },
  { title: ':link: Link this Slack channel', subcommands: [link, unlink, follow, notify, unfollow, help] },
  { title: ':newspaper: Digests', subcommands: [digest] },
] as const;

type Entry = (typeof TABLE)[number]['subcommands'][number];

/** Every command the words can say: the union of what each subcommand reads. */
export type Command = Entry extends infer S ? (S extends Subcommand<infer C> ? C : never) : never;

const ENTRIES = TABLE.flatMap((group): readonly Subcommand<Kinded>[] => group.subcommands);

/** The subcommand a word names (its name, an alias or a shorthand, any case), if any. */
export function subcommandNamed(word: string): Subcommand<Kinded> | undefined {
  const name = word.toLowerCase();
  return ENTRIES.find((s) => s.name === name || s.aliases.includes(name) || s.shorthands.includes(name));
}

const BY_KIND = new Map(ENTRIES.flatMap((s) => s.kinds.map((kind) => [kind, s] as const)));

/** The subcommand that reads commands of this kind. */
export function subcommandOf(command: Kinded): Subcommand<Kinded> {
  const found = BY_KIND.get(command.kind);
  if (!found) throw new TypeError(`no subcommand reads ${command.kind}`);
  return found;
}

/** The subcommands' names and aliases, in the help's order: the parser knows these and no others. */
export const SUBCOMMAND_NAMES: readonly string[] = ENTRIES.flatMap((s) => [s.name, ...s.aliases]);

/** The help's groups as plain data, for render/help.ts. */
export const HELP_GROUPS: readonly HelpGroup[] = TABLE.map((group) => ({
  title: group.title,
  entries: group.subcommands.flatMap((s) => s.help.map((line) => ({ name: s.name, ...line }))),
}));
