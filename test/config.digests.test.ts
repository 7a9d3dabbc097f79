/** DIGEST_QUIET_NOTE and COLLAB_POST_URL_PATTERN: defaults, and a pattern must be a regex with one capture group. */
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config.ts';
import { postIdFromPattern } from '../src/jobs/processors/unfurlLinks.ts';

const complete = {
  SLACK_SIGNING_SECRET: 'test-signing',
  SLACK_BOT_TOKEN: 'xoxb-test-config',
  COLLAB_API_URL: 'https://collab.example.com',
  COLLAB_API_KEY: 'test-key',
};

describe('digest and unfurl configuration', () => {
  it('defaults: no quiet note, no url pattern', () => {
    const config = loadConfig(complete);
    expect(config.digestQuietNote).toBe(false);
    expect(config.postUrlPattern).toBeUndefined();
    expect(loadConfig({ ...complete, DIGEST_QUIET_NOTE: 'true' }).digestQuietNote).toBe(true);
  });

  it('reads a post url pattern with one capture group', () => {
    const { postUrlPattern } = loadConfig({
      ...complete,
      COLLAB_POST_URL_PATTERN: '^https://collab\\.example\\.com/posts/([^/?#]+)',
    });
    expect(postIdFromPattern(postUrlPattern, 'https://collab.example.com/posts/pst_9?x=1')).toBe('pst_9');
    expect(postIdFromPattern(postUrlPattern, 'https://elsewhere.example.com/posts/pst_9')).toBeUndefined();
  });

  it.each(['(unclosed', 'no-group', '(a)(b)'])('refuses the pattern %j', (pattern) => {
    expect(() => loadConfig({ ...complete, COLLAB_POST_URL_PATTERN: pattern })).toThrow(ConfigError);
  });
});
