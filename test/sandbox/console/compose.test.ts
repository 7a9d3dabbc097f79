import { describe, expect, it } from 'vitest';
import { slackifyText, splitSlashCommand, unfurlableLinks } from '../../../src/sandbox/console/compose.ts';

const users = [
  { id: 'U0ADA', name: 'ada', profile: { display_name: 'Ada' } },
  { id: 'U0GRACE', name: 'grace', profile: { display_name: 'Grace' } },
];
const channels = [{ id: 'C0GENERAL', name: 'general' }];

describe('slackifyText: what Slack hands the app', () => {
  it('turns @people into mentions, with the name in slash commands (should_escape)', () => {
    expect(slackifyText('dm @grace @Ada hello', users, channels, 'command')).toBe(
      'dm <@U0GRACE|grace> <@U0ADA|ada> hello',
    );
    expect(slackifyText('thanks @grace!', users, channels, 'message')).toBe('thanks <@U0GRACE>!');
  });

  it('leaves unknown people and emails alone', () => {
    expect(slackifyText('dm @nobody hi, mail ada@example.com', users, channels, 'command')).toBe(
      'dm @nobody hi, mail ada@example.com',
    );
  });

  it('turns #channels of the workspace into channel mentions, others stay text', () => {
    expect(slackifyText('link #general with replies', users, channels, 'command')).toBe(
      'link <#C0GENERAL|general> with replies',
    );
    expect(slackifyText('post #engineering Ship', users, channels, 'command')).toBe('post #engineering Ship');
  });

  it('escapes &, <, > and wraps links', () => {
    expect(slackifyText('a < b & <script> see https://x.example/a?b=1', users, channels, 'message')).toBe(
      'a &lt; b &amp; &lt;script&gt; see <https://x.example/a?b=1>',
    );
  });
});

describe('splitSlashCommand', () => {
  it('splits the command from its text', () => {
    expect(splitSlashCommand('/collab dm @grace hi')).toEqual({ command: '/collab', text: 'dm @grace hi' });
    expect(splitSlashCommand(' /Collab ')).toEqual({ command: '/collab', text: '' });
    expect(splitSlashCommand('hello /collab')).toBeUndefined();
  });
});

describe('unfurlableLinks', () => {
  it('keeps the links of the unfurl domains and their subdomains, as Slack does for link_shared', () => {
    const text = slackifyText(
      'see https://collab.example.com/p/1 and https://eu.collab.example.com/p/2?a=1&b=2 not https://collab.example.com.evil.test/p/3 nor https://other.example/p/4 again https://collab.example.com/p/1',
      [],
      [],
      'message',
    );
    expect(unfurlableLinks(text, ['collab.example.com'])).toEqual([
      'https://collab.example.com/p/1',
      'https://eu.collab.example.com/p/2?a=1&b=2',
    ]);
    expect(unfurlableLinks(text, [])).toEqual([]);
    expect(unfurlableLinks('<https://collab.example.com/p/9|the post>', ['collab.example.com'])).toEqual([
      'https://collab.example.com/p/9',
    ]);
  });
});
