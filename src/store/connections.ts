/**
 * A workspace's connection to the collaboration service: base url and API key, the key sealed
 * (crypto.ts) so Redis never holds it in clear. `version` changes on every save, so every process
 * (web and workers) notices a reconnect and rebuilds its client (see multiWorkspace.ts).
 */
import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import type { Cipher } from './crypto.ts';
import { type KeySpace, keys } from './keys.ts';
import type { Redis } from './redis.ts';

const Stored = z.object({
  baseUrl: z.string(),
  sealedKey: z.string(),
  connectedBy: z.string(),
  connectedAt: z.string(),
  version: z.string(),
});

/** What may be shown: everything but the key. */
export interface ConnectionStatus {
  baseUrl: string;
  connectedBy: string;
  connectedAt: string;
  version: string;
}

export interface Connection extends ConnectionStatus {
  apiKey: string;
}

const context = (teamId: string) => `connection:${teamId}`;

export function connectionStore(redis: Redis, space: KeySpace, cipher: Cipher) {
  const readStored = async (teamId: string) => {
    const raw = await redis.get(keys(space, teamId).connection());
    if (raw === null) return undefined;
    const parsed = Stored.safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data : undefined;
  };
  return {
    /** The connection without its key (no decryption). */
    async status(teamId: string): Promise<ConnectionStatus | undefined> {
      const stored = await readStored(teamId);
      if (!stored) return undefined;
      const { sealedKey: _sealed, ...status } = stored;
      return status;
    },
    /** The connection with its key; a key sealed with the previous encryption key is re-sealed. */
    async get(teamId: string): Promise<Connection | undefined> {
      const stored = await readStored(teamId);
      if (!stored) return undefined;
      const { plain, stale } = cipher.open(stored.sealedKey, context(teamId));
      if (stale) {
        const resealed = { ...stored, sealedKey: cipher.seal(plain, context(teamId)) };
        await redis.set(keys(space, teamId).connection(), JSON.stringify(resealed));
      }
      const { sealedKey: _sealed, ...status } = stored;
      return { ...status, apiKey: plain };
    },
    async save(
      teamId: string,
      connection: { baseUrl: string; apiKey: string; connectedBy: string },
      at: Date = new Date(),
    ): Promise<ConnectionStatus> {
      const stored = {
        baseUrl: connection.baseUrl,
        sealedKey: cipher.seal(connection.apiKey, context(teamId)),
        connectedBy: connection.connectedBy,
        connectedAt: at.toISOString(),
        version: randomBytes(8).toString('hex'),
      };
      await redis.set(keys(space, teamId).connection(), JSON.stringify(stored));
      const { sealedKey: _sealed, ...status } = stored;
      return status;
    },
    async remove(teamId: string): Promise<boolean> {
      return (await redis.del(keys(space, teamId).connection())) > 0;
    },
  };
}
export type ConnectionStore = ReturnType<typeof connectionStore>;
