/**
 * Bolt's InstallationStore in Redis. Workspace installs live under the team's keys (so removing a
 * team's data removes its installation); Enterprise Grid org-wide installs under the enterprise's.
 * Installations hold bot tokens: they are stored sealed (crypto.ts), never in clear. With token
 * rotation, every installation read carries a bot token valid for a while yet (tokenRotation.ts):
 * Bolt's installer (web role) and the worker both read through here.
 */
import type { Installation, InstallationQuery, InstallationStore } from '@slack/bolt';
import type { Cipher } from './crypto.ts';
import { enterpriseKeys, type KeySpace, keys } from './keys.ts';
import type { Redis } from './redis.ts';
import type { TokenRotation } from './tokenRotation.ts';

export type AnyInstallation = Installation<'v1' | 'v2', boolean>;

export interface RedisInstallationStore extends InstallationStore {
  fetchInstallation(query: InstallationQuery<boolean>): Promise<AnyInstallation>;
  deleteInstallation(query: InstallationQuery<boolean>): Promise<void>;
  /** The installation serving a team (its own, or its enterprise's org-wide one), if any. */
  forTeam(teamId: string): Promise<AnyInstallation | undefined>;
  /**
   * Whether the org-wide installation of `enterpriseId` may act for `teamId`: not when the team
   * has an installation of its own from outside that enterprise, nor when it is already served by
   * another enterprise. The first answer yes binds the team to the enterprise (never rebound).
   */
  bindEnterprise(teamId: string, enterpriseId: string): Promise<boolean>;
}

export class InstallationNotFoundError extends Error {
  override readonly name = 'InstallationNotFoundError';
}

export function installationStore(
  redis: Redis,
  space: KeySpace,
  cipher: Cipher,
  options: { rotation?: TokenRotation | undefined } = {},
): RedisInstallationStore {
  const where = (query: {
    isEnterpriseInstall?: boolean;
    enterpriseId?: string | undefined;
    teamId?: string | undefined;
  }) => {
    if (query.isEnterpriseInstall && query.enterpriseId) {
      return {
        key: enterpriseKeys(space, query.enterpriseId).installation(),
        context: `installation:e:${query.enterpriseId}`,
      };
    }
    if (query.teamId)
      return { key: keys(space, query.teamId).installation(), context: `installation:t:${query.teamId}` };
    return undefined;
  };

  const read = async (at: { key: string; context: string }): Promise<AnyInstallation | undefined> => {
    const sealed = await redis.get(at.key);
    if (sealed === null) return undefined;
    const { plain, stale } = cipher.open(sealed, at.context);
    if (stale) await redis.set(at.key, cipher.seal(plain, at.context));
    return JSON.parse(plain) as AnyInstallation;
  };

  const write = async (at: { key: string; context: string }, installation: AnyInstallation) => {
    await redis.set(at.key, cipher.seal(JSON.stringify(installation), at.context));
  };
  /** With token rotation, every installation read has a bot token valid for a while yet. */
  const fresh = async (at: { key: string; context: string }, installation: AnyInstallation | undefined) =>
    installation && options.rotation
      ? options.rotation.fresh(
          { key: at.key, read: () => read(at), write: (next) => write(at, next) },
          installation,
        )
      : installation;

  return {
    async storeInstallation(installation) {
      const at = where({
        isEnterpriseInstall: installation.isEnterpriseInstall === true,
        enterpriseId: installation.enterprise?.id,
        teamId: installation.team?.id,
      });
      if (!at) throw new Error('an installation without a team or an enterprise cannot be stored');
      await write(at, installation);
    },
    async fetchInstallation(query) {
      const at = where(query);
      const found = at ? await fresh(at, await read(at)) : undefined;
      if (!found) throw new InstallationNotFoundError('no installation for this workspace');
      return found;
    },
    async deleteInstallation(query) {
      const at = where(query);
      if (at) await redis.del(at.key);
    },
    async forTeam(teamId) {
      const team = where({ teamId })!;
      const own = await read(team);
      if (own) return fresh(team, own);
      const enterpriseId = await redis.get(keys(space, teamId).enterprise());
      if (!enterpriseId) return undefined;
      const org = where({ isEnterpriseInstall: true, enterpriseId })!;
      return fresh(org, await read(org));
    },
    async bindEnterprise(teamId, enterpriseId) {
      const own = await read(where({ teamId })!);
      if (own && own.enterprise?.id !== enterpriseId) return false;
      const key = keys(space, teamId).enterprise();
      await redis.set(key, enterpriseId, 'NX');
      return (await redis.get(key)) === enterpriseId;
    },
  };
}
