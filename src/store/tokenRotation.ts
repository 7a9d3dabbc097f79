/**
 * Token rotation (`token_rotation_enabled`): a rotating bot token lives 12 hours and comes with a
 * refresh token that is traded once, at `oauth.v2.access` with `grant_type=refresh_token`, for a
 * new pair. {@link tokenRotation} makes sure an installation's bot token is valid: when less than
 * {@link REFRESH_AHEAD_SECONDS} remain it refreshes it and stores the new pair. The web role
 * (Bolt's installer reads installations through the store) and the worker get tokens this way.
 *
 * One refresh per installation, across processes: the refresher holds a Redis lock
 * (SET NX PX); the others wait for the new pair to be stored and use it. Within a process,
 * concurrent callers share one attempt. A refresh token traded twice would break the
 * installation (the second trade is refused), which the lock prevents.
 */
import { randomBytes } from 'node:crypto';
import { WebClient } from '@slack/web-api';
import { DELETE_IF_HOLDS } from './lua.ts';
import type { Redis } from './redis.ts';

/**
 * Refresh when less than this remains. Bolt's installer refreshes on its own (without a lock)
 * tokens that expire within 2 hours, so a token handed to it always has more than that left.
 */
export const REFRESH_AHEAD_SECONDS = 2 * 3600 + 15 * 60;
/** How long the refresher may hold the lock (Slack answers in well under this). */
const LOCK_MS = 15_000;
/** How often a process waiting for another's refresh reads the installation again. */
const WAIT_POLL_MS = 100;

export interface RotatingBot {
  token?: string | undefined;
  refreshToken?: string | undefined;
  /** UTC seconds */
  expiresAt?: number | undefined;
}

export interface Renewed {
  accessToken: string;
  refreshToken: string;
  expiresInSeconds: number;
}

/** Trades a refresh token for a new pair (oauth.v2.access, grant_type=refresh_token). */
export type RefreshBotToken = (refreshToken: string) => Promise<Renewed>;

/** The Slack exchange of {@link RefreshBotToken}. */
export function slackTokenRefresher(options: {
  clientId: string;
  clientSecret: string;
  slackApiUrl?: string | undefined;
}): RefreshBotToken {
  const client = new WebClient(undefined, {
    ...(options.slackApiUrl ? { slackApiUrl: options.slackApiUrl } : {}),
    timeout: 5000,
    retryConfig: { retries: 1, factor: 1, minTimeout: 200, maxTimeout: 1000 },
  });
  return async (refreshToken) => {
    const answer = await client.oauth.v2.access({
      client_id: options.clientId,
      client_secret: options.clientSecret,
      grant_type: 'refresh_token',
      refresh_token: refreshToken,
    });
    if (!answer.access_token || !answer.refresh_token || typeof answer.expires_in !== 'number') {
      throw new Error('oauth.v2.access did not answer a rotating token pair');
    }
    return {
      accessToken: answer.access_token,
      refreshToken: answer.refresh_token,
      expiresInSeconds: answer.expires_in,
    };
  };
}

/** Where an installation lives, and how to read and write it there. */
export interface RotationSlot<T extends { bot?: RotatingBot | undefined }> {
  /** the installation's Redis key; the lock is beside it */
  key: string;
  read(): Promise<T | undefined>;
  write(installation: T): Promise<void>;
}

export interface TokenRotation {
  /** The installation with a bot token valid for a while yet: refreshed and stored if needed. */
  fresh<T extends { bot?: RotatingBot | undefined }>(slot: RotationSlot<T>, installation: T): Promise<T>;
}

export function tokenRotation(
  redis: Redis,
  refresh: RefreshBotToken,
  now: () => number = Date.now,
): TokenRotation {
  const pending = new Map<string, Promise<unknown>>();
  const expiring = (bot: RotatingBot | undefined): boolean =>
    bot?.refreshToken !== undefined &&
    bot.expiresAt !== undefined &&
    bot.expiresAt - now() / 1000 < REFRESH_AHEAD_SECONDS;

  async function renew<T extends { bot?: RotatingBot | undefined }>(
    slot: RotationSlot<T>,
    seen: T,
  ): Promise<T> {
    const lock = `${slot.key}:refresh-lock`;
    const owner = randomBytes(12).toString('hex');
    const deadline = now() + LOCK_MS * 2;
    let latest = seen;
    while (now() < deadline) {
      if ((await redis.set(lock, owner, 'PX', LOCK_MS, 'NX')) === 'OK') {
        try {
          // Another process may have refreshed between our read and the lock.
          const current = (await slot.read()) ?? latest;
          if (!expiring(current.bot)) return current;
          const renewed = await refresh(current.bot!.refreshToken!);
          const next: T = {
            ...current,
            bot: {
              ...current.bot,
              token: renewed.accessToken,
              refreshToken: renewed.refreshToken,
              expiresAt: Math.floor(now() / 1000) + renewed.expiresInSeconds,
            },
          };
          await slot.write(next);
          return next;
        } finally {
          await redis.eval(DELETE_IF_HOLDS, 1, lock, owner).catch(() => {});
        }
      }
      // Someone else refreshes: wait for the pair they store.
      await new Promise((resolve) => setTimeout(resolve, WAIT_POLL_MS));
      latest = (await slot.read()) ?? latest;
      if (!expiring(latest.bot)) return latest;
    }
    // No refresh happened in time: the token may still be valid for a while.
    if ((latest.bot?.expiresAt ?? 0) > now() / 1000) return latest;
    throw new Error('the bot token expired and could not be refreshed');
  }

  return {
    async fresh(slot, installation) {
      if (!expiring(installation.bot)) return installation;
      let attempt = pending.get(slot.key) as Promise<typeof installation> | undefined;
      if (!attempt) {
        attempt = renew(slot, installation).finally(() => pending.delete(slot.key));
        pending.set(slot.key, attempt);
      }
      return attempt;
    },
  };
}
