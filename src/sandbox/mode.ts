/**
 * Which parts `npm start` emulates, from what is configured. Pure: the environment in, a choice out.
 *
 * - nothing configured (no Slack and no service credentials) → the local Slack stand-in, its
 *   console and the emulator
 * - `SANDBOX=collab` → real Slack (as configured), emulated collaboration API
 * - `SANDBOX=slack` → the local Slack stand-in, the real collaboration API (as configured)
 * - `SANDBOX=all` → everything emulated, whatever else is set
 * - anything else → not a sandbox: the bot runs as configured, and a partial configuration is
 *   an error naming what is missing (loadConfig)
 * - `NODE_ENV=production` → never a sandbox (the launcher does not even ask)
 */
export interface SandboxPlan {
  slack: 'local' | 'real';
  collab: 'emulator' | 'real';
  /** the SANDBOX value that asked for it; undefined when nothing was configured at all */
  asked?: SandboxPart | undefined;
}

export const SANDBOX_PARTS = ['all', 'slack', 'collab'] as const;
export type SandboxPart = (typeof SANDBOX_PARTS)[number];

export type SandboxChoice =
  | { kind: 'sandbox'; plan: SandboxPlan }
  | { kind: 'bot' }
  | { kind: 'error'; problems: string[] };

type Env = Record<string, string | undefined>;

const set = (value: string | undefined): boolean => value !== undefined && value.trim() !== '';

/** The variables whose presence means "a real deployment is meant". */
export const CREDENTIALS = [
  'SLACK_BOT_TOKEN',
  'SLACK_SIGNING_SECRET',
  'SLACK_APP_TOKEN',
  'SLACK_CLIENT_ID',
  'SLACK_CLIENT_SECRET',
  'SLACK_STATE_SECRET',
  'COLLAB_API_URL',
  'COLLAB_API_KEY',
] as const;

/** Sandbox, bot, or an error naming what an explicitly asked-for sandbox part still needs. */
export function chooseStart(env: Env): SandboxChoice {
  const asked = env.SANDBOX?.trim() ?? '';
  if (asked === '') {
    const configured = CREDENTIALS.some((name) => set(env[name]));
    return configured ? { kind: 'bot' } : { kind: 'sandbox', plan: { slack: 'local', collab: 'emulator' } };
  }
  if (!(SANDBOX_PARTS as readonly string[]).includes(asked)) {
    return {
      kind: 'error',
      problems: [`SANDBOX must be one of ${SANDBOX_PARTS.join(', ')}, got "${asked}".`],
    };
  }
  const part = asked as SandboxPart;
  const problems: string[] = [];
  if (part === 'collab') {
    if (!set(env.SLACK_BOT_TOKEN))
      problems.push('SLACK_BOT_TOKEN is missing (real Slack with SANDBOX=collab).');
    if (!set(env.SLACK_SIGNING_SECRET) && !set(env.SLACK_APP_TOKEN))
      problems.push(
        'SLACK_SIGNING_SECRET (HTTP mode) or SLACK_APP_TOKEN (Socket Mode) is missing (real Slack).',
      );
    if (set(env.SLACK_CLIENT_ID))
      problems.push(
        'SLACK_CLIENT_ID: SANDBOX=collab pairs one workspace (SLACK_BOT_TOKEN) with the emulator.',
      );
  }
  if (part === 'slack') {
    if (!set(env.COLLAB_API_URL))
      problems.push('COLLAB_API_URL is missing (the real service with SANDBOX=slack).');
    if (!set(env.COLLAB_API_KEY))
      problems.push('COLLAB_API_KEY is missing (the real service with SANDBOX=slack).');
  }
  if (problems.length > 0) return { kind: 'error', problems };
  return {
    kind: 'sandbox',
    plan: {
      slack: part === 'collab' ? 'real' : 'local',
      collab: part === 'slack' ? 'real' : 'emulator',
      asked: part,
    },
  };
}

/** How the start line names a plan. */
export function describePlan(plan: SandboxPlan): string {
  const slack = plan.slack === 'local' ? 'local Slack stand-in' : 'real Slack';
  const collab = plan.collab === 'emulator' ? 'emulated collaboration API' : 'real collaboration API';
  return `${slack} + ${collab}${plan.asked ? ` (SANDBOX=${plan.asked})` : ''}`;
}
