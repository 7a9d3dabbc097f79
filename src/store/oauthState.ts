/**
 * Bolt's OAuth StateStore, with each state usable once. The state is signed with
 * SLACK_STATE_SECRET and expires after 10 minutes (as Bolt's own store); at the callback it is
 * also consumed in Redis (`SET NX`, atomic across web processes), so a replayed callback — the
 * same state and cookie again — is refused before `oauth.v2.access` is called. Nothing is written
 * when the install page is opened, only when a signed, fresh state comes back.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { InstallURLOptions, StateStore } from '@slack/bolt';
import { appKeys, type KeySpace } from './keys.ts';
import type { Redis } from './redis.ts';

export const STATE_TTL_SECONDS = 600;

/** Refused states; the installer turns it into its failure page. */
export class InvalidOAuthStateError extends Error {
  override readonly name = 'InvalidStateError';
  readonly code = 'slack_oauth_invalid_state';
}

interface StatePayload {
  installOptions: InstallURLOptions;
  issuedAt: number;
  nonce: string;
}

export function oauthStateStore(redis: Redis, space: KeySpace, stateSecret: string): StateStore {
  const sign = (body: string) => createHmac('sha256', stateSecret).update(body).digest('base64url');
  return {
    async generateStateParam(installOptions, now) {
      const payload: StatePayload = {
        installOptions,
        issuedAt: now.getTime(),
        nonce: randomBytes(16).toString('hex'),
      };
      const body = Buffer.from(JSON.stringify(payload)).toString('base64url');
      return `${body}.${sign(body)}`;
    },
    async verifyStateParam(now, state) {
      const [body, mac, ...rest] = state.split('.');
      const expected = body === undefined ? '' : sign(body);
      if (
        rest.length > 0 ||
        body === undefined ||
        mac === undefined ||
        mac.length !== expected.length ||
        !timingSafeEqual(Buffer.from(mac), Buffer.from(expected))
      ) {
        throw new InvalidOAuthStateError('The state parameter is not one this app issued.');
      }
      const payload = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as StatePayload;
      const age = now.getTime() - payload.issuedAt;
      if (!(age >= -60_000 && age <= STATE_TTL_SECONDS * 1000)) {
        throw new InvalidOAuthStateError('The state parameter has expired: start the installation again.');
      }
      const first = await redis.set(
        appKeys(space).oauthStateUsed(payload.nonce),
        '1',
        'EX',
        STATE_TTL_SECONDS + 60,
        'NX',
      );
      if (first !== 'OK') {
        throw new InvalidOAuthStateError(
          'The state parameter was already used: start the installation again.',
        );
      }
      return payload.installOptions;
    },
  };
}
