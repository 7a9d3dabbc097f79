import { describe, expect, it } from 'vitest';
import { RESPONSE_URL_USABLE_MS, usableResponseUrl } from '../../src/operations/responseUrl.ts';

const url = 'https://hooks.slack.test/actions/T1/1/abc';
const now = 1_800_000_000_000;

describe('the one response_url rule', () => {
  it('dates the url from when Slack issued it, not from a later submission', () => {
    const issuedAt = now - RESPONSE_URL_USABLE_MS - 1;
    expect(
      usableResponseUrl({ responseUrl: url, responseUrlAt: issuedAt, receivedAt: now }, now),
    ).toBeUndefined();
    expect(
      usableResponseUrl({ responseUrl: url, responseUrlAt: now - 60_000, receivedAt: issuedAt }, now),
    ).toBe(url);
  });

  it('falls back on when the interaction carrying it arrived', () => {
    expect(usableResponseUrl({ responseUrl: url, receivedAt: now - 60_000 }, now)).toBe(url);
    expect(
      usableResponseUrl({ responseUrl: url, receivedAt: now - RESPONSE_URL_USABLE_MS }, now),
    ).toBeUndefined();
  });

  it('never uses a url whose age is unknown', () => {
    expect(usableResponseUrl({ responseUrl: url }, now)).toBeUndefined();
  });
});
