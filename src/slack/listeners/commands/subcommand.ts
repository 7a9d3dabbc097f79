/**
 * What a subcommand of the slash command is: the words it reads, what each command read does
 * (a job to enqueue, or an answer given in place), and the lines the help and its usage errors
 * show. The table of them is subcommands/index.ts.
 */
import type { JobInput, Operation, Origin } from '../../../operations/schemas.ts';
import type { HelpLine } from '../../../render/help.ts';

/** A command as read from the words: its kind, and what the words said. */
export interface Kinded {
  kind: string;
}

/** One operation to enqueue, and the note the person sees meanwhile. */
export type Job = {
  [O in Operation]: {
    operation: O;
    data: JobInput<O>;
    note: string;
    /** a settings change: admins only, audited under this name, e.g. `digest add` requested */
    settings?: string;
  };
}[Operation];

/** What a command does: a job, or an answer given at once (the help, the post form). */
export type Plan = Job | { answer: 'help' } | { answer: 'postForm' };

/** One plan per kind of command the subcommand reads. */
export type Plans<C extends Kinded> = {
  [K in C['kind']]: (command: Extract<C, { kind: K }>, origin: Origin) => Plan;
};

export interface SubcommandSpec<C extends Kinded> {
  /** the first word after the slash command */
  name: string;
  /** other names it answers to, shown in its help line */
  aliases?: readonly string[];
  /** spellings it also answers to that the help does not list (`?` for help) */
  shorthands?: readonly string[];
  /** its lines in the help; their syntaxes are its usage, shown with its errors */
  help: readonly HelpLine[];
  /** the words after its name → the command they say, or why they say none (a sentence) */
  read(args: readonly string[]): C | string;
  plan: Plans<C>;
  /** what an audit records of a settings change; default all the words after the name */
  detail?(args: readonly string[]): string;
}

export interface Subcommand<C extends Kinded = Kinded> {
  readonly name: string;
  readonly aliases: readonly string[];
  readonly shorthands: readonly string[];
  readonly help: readonly HelpLine[];
  /** the kinds of command it reads */
  readonly kinds: readonly string[];
  read(args: readonly string[]): C | string;
  plan(command: C, origin: Origin): Plan;
  detail(args: readonly string[]): string;
}

/** A subcommand from its spec: the plans of its kinds become one function. */
export function subcommand<C extends Kinded>(spec: SubcommandSpec<C>): Subcommand<C> {
  const plans = spec.plan as unknown as Record<string, (command: C, origin: Origin) => Plan>;
  return {
    name: spec.name,
    aliases: spec.aliases ?? [],
    shorthands: spec.shorthands ?? [],
    help: spec.help,
    kinds: Object.keys(plans),
    read: spec.read,
    plan: (command, origin) => plans[command.kind]!(command, origin),
    detail: spec.detail ?? ((args) => args.join(' ')),
  };
}
