import { describe, expect, it } from 'vitest';
import { helpMessage } from '../../src/render/help.ts';
import { SUBCOMMANDS } from '../../src/slack/listeners/commands/grammar.ts';
import { HELP_GROUPS } from '../../src/slack/listeners/commands/subcommands/index.ts';
import { allTexts, assertMessageWithinLimits } from '../support/blockKit.ts';

describe('helpMessage', () => {
  const help = helpMessage('/collab', HELP_GROUPS);
  const text = allTexts(help.blocks).join('\n');

  it('mentions every subcommand of the grammar, with the command', () => {
    for (const sub of SUBCOMMANDS) {
      expect(text).toMatch(new RegExp(`\`/collab ${sub}\\b`));
    }
  });

  it('shows the exact syntax lines, escaped for mrkdwn', () => {
    for (const line of [
      '`/collab post`',
      '`/collab post [#channel] &lt;title&gt; [| &lt;content&gt;]`',
      '`/collab resolve &lt;post&gt; [message]`',
      '`/collab unresolve &lt;post&gt;`',
      '`/collab reply &lt;post&gt; [parent:&lt;comment&gt;] &lt;text&gt;`',
      '`/collab dm @someone [@other …] &lt;text&gt;`',
      '`/collab dm &lt;thread&gt; &lt;text&gt;`',
      '`/collab posts [#channel] [unresolved]`',
      '`/collab channels [name]`',
      '`/collab members [query] [role:admin,guest]`',
      '`/collab thread &lt;thread&gt;`',
      '`/collab link #channel [with replies]`',
      '`/collab unlink`',
      '`/collab help`',
    ]) {
      expect(text).toContain(line);
    }
    expect(text).toContain('alias: reopen');
  });

  it('gives examples, the shortcuts and the card buttons', () => {
    expect(text).toContain('`/collab post #engineering Ship 2.3 | Release notes are in the doc`');
    for (const name of [
      'New post',
      'Create post from message',
      'Create post from thread',
      'Comment on post',
      'Resolve post',
    ])
      expect(text).toContain(name);
    for (const button of ['*Resolve*', '*Reopen*', '*Comment*', '*Open*']) expect(text).toContain(button);
    const withExamples = HELP_GROUPS.flatMap((g) => g.entries).filter((e) => e.example);
    expect(withExamples.length).toBeGreaterThanOrEqual(10);
  });

  it('uses the command it is given and stays within limits', () => {
    const other = helpMessage('/team', HELP_GROUPS);
    expect(allTexts(other.blocks).join('\n')).toContain('`/team resolve &lt;post&gt; [message]`');
    assertMessageWithinLimits(help);
    assertMessageWithinLimits(other);
  });
});
