import { describe, expect, it } from 'vitest';
import { parseCommand, SUBCOMMANDS } from '../../../../src/slack/listeners/commands/grammar.ts';

const ok = (text: string) => {
  const result = parseCommand(text);
  if (!result.ok) throw new Error(`expected ${text} to parse: ${result.error}`);
  return result.command;
};
const error = (text: string) => {
  const result = parseCommand(text);
  if (result.ok) throw new Error(`expected ${text} to fail, got ${JSON.stringify(result.command)}`);
  return result;
};

describe('slash command grammar', () => {
  it('answers help for nothing, help and ?', () => {
    expect(ok('')).toEqual({ kind: 'help' });
    expect(ok('  help ')).toEqual({ kind: 'help' });
    expect(ok('?')).toEqual({ kind: 'help' });
  });

  it('opens the form for a bare post', () => {
    expect(ok('post')).toEqual({ kind: 'postModal' });
  });

  it('posts with channel, title and content', () => {
    expect(ok('post #engineering Ship 2.3 | Notes are in the doc')).toEqual({
      kind: 'post',
      channel: { name: 'engineering' },
      title: 'Ship 2.3',
      content: 'Notes are in the doc',
    });
    expect(ok('post <#C123|design> Hello')).toEqual({
      kind: 'post',
      channel: { name: 'design' },
      content: 'Hello',
    });
    expect(ok('post Just content')).toEqual({ kind: 'post', content: 'Just content' });
  });

  it('turns Slack markup in content into plain markdown', () => {
    expect(ok('post Ask <@U1|ada> about <https://x.test|the doc> &amp; &lt;tags&gt; <!here>')).toEqual({
      kind: 'post',
      content: 'Ask @ada about [the doc](https://x.test) & <tags> @here',
    });
  });

  it('rejects a title without content and a channel without text', () => {
    expect(error('post Title |').error).toMatch(/no content/);
    expect(error('post #eng').error).toMatch(/after the channel/);
  });

  it('names posts by id or url', () => {
    expect(ok('resolve pst_1 Fixed in 2.3')).toEqual({
      kind: 'resolve',
      post: { id: 'pst_1' },
      message: 'Fixed in 2.3',
    });
    expect(ok('resolve <https://collab.test/p/1>')).toEqual({
      kind: 'resolve',
      post: { url: 'https://collab.test/p/1' },
    });
    expect(ok('reopen pst_1')).toEqual({ kind: 'unresolve', post: { id: 'pst_1' } });
    expect(ok('unresolve pst_1')).toEqual({ kind: 'unresolve', post: { id: 'pst_1' } });
    expect(error('resolve').usage).toContain('/collab resolve <post> [message]');
    expect(error('unresolve pst_1 extra').error).toMatch(/only the post/);
  });

  it('refuses . and .. as ids at once: in a URL path they name another path', () => {
    expect(error('resolve ..').error).toMatch(/Name the post/);
    expect(error('reopen .').error).toMatch(/Name the post/);
    expect(error('reply .. Looks good').error).toMatch(/Name the post/);
    expect(error('reply pst_1 parent:.. Agreed').error).toMatch(/needs a comment id/);
    expect(error('thread ..').error).toMatch(/Name the thread/);
    expect(error('dm .. hello').error).toMatch(/Say who/);
    expect(ok('resolve ...')).toEqual({ kind: 'resolve', post: { id: '...' } });
  });

  it('replies with an optional parent comment', () => {
    expect(ok('reply pst_1 parent:cmt_9 Agreed')).toEqual({
      kind: 'reply',
      post: { id: 'pst_1' },
      parentId: 'cmt_9',
      text: 'Agreed',
    });
    expect(ok('reply pst_1 Looks good')).toEqual({
      kind: 'reply',
      post: { id: 'pst_1' },
      text: 'Looks good',
    });
    expect(error('reply pst_1').error).toMatch(/Write the comment/);
  });

  it('messages people or a thread', () => {
    expect(ok('dm <@U1|ada> <@U2> <@U1> lunch?')).toEqual({
      kind: 'dm',
      slackUserIds: ['U1', 'U2'],
      text: 'lunch?',
    });
    expect(ok('dm thr_1 see you')).toEqual({ kind: 'dmThread', threadId: 'thr_1', text: 'see you' });
    expect(error('dm @ada hi').error).toMatch(/not a Slack mention/);
    expect(error('dm <@U1>').error).toMatch(/Write the message/);
    expect(error('dm').error).toMatch(/Say who/);
    const many = Array.from({ length: 21 }, (_, i) => `<@U${i}>`).join(' ');
    expect(error(`dm ${many} hi`).error).toMatch(/at most 20/);
  });

  it('lists with filters', () => {
    expect(ok('posts')).toEqual({ kind: 'posts', unresolvedOnly: false });
    expect(ok('posts #eng unresolved')).toEqual({
      kind: 'posts',
      channel: { name: 'eng' },
      unresolvedOnly: true,
    });
    expect(error('posts whatever').error).toMatch(/did not understand/);
    expect(ok('channels des')).toEqual({ kind: 'channels', name: 'des' });
    expect(ok('channels')).toEqual({ kind: 'channels' });
    expect(ok('members ada role:admin,guest')).toEqual({
      kind: 'members',
      search: 'ada',
      roles: ['admin', 'guest'],
    });
    expect(error('members role:owner').error).toMatch(/not owner/);
    expect(ok('thread thr_1')).toEqual({ kind: 'thread', threadId: 'thr_1' });
    expect(error('thread').usage).toContain('thread <thread>');
  });

  it('links and unlinks', () => {
    expect(ok('link #engineering')).toEqual({
      kind: 'link',
      channel: { name: 'engineering' },
      bridgeReplies: false,
    });
    expect(ok('link #engineering with replies')).toEqual({
      kind: 'link',
      channel: { name: 'engineering' },
      bridgeReplies: true,
    });
    expect(error('link engineering').error).toMatch(/with a #/);
    expect(error('link #eng sometimes').error).toMatch(/did not understand/);
    expect(ok('unlink')).toEqual({ kind: 'unlink' });
    expect(error('unlink #x').error).toMatch(/takes nothing/);
  });

  it('suggests the closest subcommand for a typo', () => {
    expect(error('resolv pst_1').error).toMatch(/Did you mean `\/collab resolve`/);
    expect(error('frobnicate').error).not.toMatch(/Did you mean/);
  });

  it('refuses oversize text with the limit', () => {
    expect(error(`post ${'x'.repeat(40_001)}`).error).toMatch(/limit is 40,000/);
  });

  it('knows every subcommand it lists', () => {
    for (const sub of SUBCOMMANDS) {
      const result = parseCommand(sub);
      if (!result.ok) expect(result.error).not.toMatch(/I don't know/);
    }
  });
});

describe('the title separator', () => {
  it('ignores bars inside Slack markup', () => {
    expect(parseCommand('post <@U1|ada> wrote <https://x.test|this> | body')).toEqual({
      ok: true,
      command: { kind: 'post', title: '@ada wrote [this](https://x.test)', content: 'body' },
    });
  });
});
