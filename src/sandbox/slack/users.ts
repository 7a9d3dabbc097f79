import type { SlackUser } from './types.ts';

export interface SlackUserSeed {
  id: string;
  name: string;
  real_name: string;
  email?: string;
  display_name?: string;
  tz?: string;
  team_id?: string;
  is_admin?: boolean;
  is_owner?: boolean;
  is_bot?: boolean;
  deleted?: boolean;
}

/** Offset in seconds east of UTC of `timeZone` at `at` (Slack's `tz_offset`), 0 if unknown. */
export function timeZoneOffsetSec(timeZone: string, at: Date = new Date()): number {
  try {
    const part = new Intl.DateTimeFormat('en-US', { timeZone, timeZoneName: 'longOffset' })
      .formatToParts(at)
      .find((p) => p.type === 'timeZoneName')?.value;
    const match = /GMT([+-])(\d{2}):(\d{2})/.exec(part ?? '');
    if (!match) return 0;
    const seconds = Number(match[2]) * 3600 + Number(match[3]) * 60;
    return match[1] === '-' ? -seconds : seconds;
  } catch {
    return 0;
  }
}

function timeZoneLabel(timeZone: string, at: Date = new Date()): string {
  try {
    return (
      new Intl.DateTimeFormat('en-US', { timeZone, timeZoneName: 'long' })
        .formatToParts(at)
        .find((p) => p.type === 'timeZoneName')?.value ?? timeZone
    );
  } catch {
    return timeZone;
  }
}

/** Builds a `users.info`-shaped user from the few fields that matter. */
export function makeSlackUser(seed: SlackUserSeed): SlackUser {
  const tz = seed.tz ?? 'UTC';
  return {
    id: seed.id,
    team_id: seed.team_id ?? 'T_LOCAL',
    name: seed.name,
    real_name: seed.real_name,
    deleted: seed.deleted ?? false,
    tz,
    tz_label: timeZoneLabel(tz),
    tz_offset: timeZoneOffsetSec(tz),
    is_admin: seed.is_admin ?? false,
    is_owner: seed.is_owner ?? false,
    is_bot: seed.is_bot ?? false,
    profile: {
      ...(seed.email === undefined ? {} : { email: seed.email }),
      display_name: seed.display_name ?? seed.name,
      real_name: seed.real_name,
      image_48: `https://slack.example/avatars/${seed.id}_48.png`,
    },
  };
}

/** Default seed: Ada (admin, Paris) and Grace (New York), under the ids given. */
export function defaultUsers(
  teamId = 'T_LOCAL',
  ids: { ada: string; grace: string } = { ada: 'U_ADA', grace: 'U_GRACE' },
): SlackUser[] {
  return [
    makeSlackUser({
      id: ids.ada,
      team_id: teamId,
      name: 'ada',
      real_name: 'Ada Lovelace',
      display_name: 'Ada',
      email: 'ada@example.com',
      tz: 'Europe/Paris',
      is_admin: true,
      is_owner: true,
    }),
    makeSlackUser({
      id: ids.grace,
      team_id: teamId,
      name: 'grace',
      real_name: 'Grace Hopper',
      display_name: 'Grace',
      email: 'grace@example.com',
      tz: 'America/New_York',
    }),
  ];
}
