/**
 * The slash command's table (src/slack/listeners/commands/subcommands/): the help, the usage of
 * errors and the parser are read from one entry per subcommand, so they cannot drift apart.
 */
import { describe, expect, it } from 'vitest';
import { parseCommand, SUBCOMMANDS, usage } from '../../../../src/slack/listeners/commands/grammar.ts';
import { HELP_GROUPS, TABLE } from '../../../../src/slack/listeners/commands/subcommands/index.ts';

const entries = TABLE.flatMap((group) => [...group.subcommands]);

/** An example as Slack sends it: `@ada` picked from the @ list arrives as a mention. */
const asSlackSends = (example: string) =>
  example.replace(
    /(^|\s)@(\w+)/g,
    (_, space: string, name: string) => `${space}<@U${name.toUpperCase()}|${name}>`,
  );

describe('the slash command table', () => {
  it('gives every subcommand one entry, with help lines that start with its name', () => {
    const names = entries.map((entry) => entry.name);
    expect(new Set(names).size).toBe(names.length);
    for (const entry of entries) {
      expect(entry.help.length, entry.name).toBeGreaterThan(0);
      for (const line of entry.help) expect(line.syntax.split(' ')[0], entry.name).toBe(entry.name);
    }
  });

  it('reads every example of the help as a command of its own subcommand', () => {
    let examples = 0;
    for (const entry of entries) {
      for (const line of entry.help) {
        if (!line.example) continue;
        examples += 1;
        const parsed = parseCommand(asSlackSends(line.example));
        if (!parsed.ok) throw new Error(`${line.example}: ${parsed.error}`);
        expect(entry.kinds, line.example).toContain(parsed.command.kind);
      }
    }
    expect(examples).toBeGreaterThanOrEqual(10);
  });

  it('plans every kind of command one subcommand reads, and no kind twice', () => {
    const kinds = entries.flatMap((entry) => entry.kinds);
    expect(new Set(kinds).size).toBe(kinds.length);
  });

  it('shows in an error the usage the help shows', () => {
    for (const entry of entries) {
      const lines = entry.help.map((line) => `/collab ${line.syntax}`);
      expect(usage('/collab', entry.name)).toBe(lines.join('   or   '));
      for (const alias of entry.aliases) expect(usage('/collab', alias)).toBe(usage('/collab', entry.name));
    }
    const refused = parseCommand('thread');
    expect(refused).toMatchObject({ ok: false, usage: '/collab thread <thread>' });
  });

  it('hands the help its groups in the table order, every name and alias known to the parser', () => {
    expect(HELP_GROUPS.map((group) => group.title)).toEqual(TABLE.map((group) => group.title));
    expect(SUBCOMMANDS).toEqual(entries.flatMap((entry) => [entry.name, ...entry.aliases]));
    expect(SUBCOMMANDS).toContain('reopen');
    expect(SUBCOMMANDS).not.toContain('?');
    expect(parseCommand('?')).toEqual({ ok: true, command: { kind: 'help' } });
  });
});
