/**
 * Which parts `npm start` emulates, from what is configured. Pure: the environment in, a plan out.
 *
 * - no SLACK_BOT_TOKEN → the local Slack stand-in and its console (sandbox mode)
 * - SLACK_BOT_TOKEN with SLACK_SIGNING_SECRET or SLACK_APP_TOKEN, but no COLLAB_API_URL → real
 *   Slack, emulated collaboration API
 * - COLLAB_API_URL (with COLLAB_API_KEY) → the real collaboration API
 * - both real, or multi-workspace mode (SLACK_CLIENT_ID: every workspace installs and connects
 *   its own) → not a sandbox: the bot runs as configured
 */
export interface SandboxPlan {
  slack: 'local' | 'real';
  collab: 'emulator' | 'real';
}

type Env = Record<string, string | undefined>;

const set = (value: string | undefined): boolean => value !== undefined && value.trim() !== '';

/** The sandbox plan, or undefined when nothing needs emulating (normal start). */
export function sandboxPlan(env: Env): SandboxPlan | undefined {
  if (set(env.SLACK_CLIENT_ID)) return undefined;
  const realSlack = set(env.SLACK_BOT_TOKEN) && (set(env.SLACK_SIGNING_SECRET) || set(env.SLACK_APP_TOKEN));
  // A bot token without a way to receive requests is an incomplete real configuration: let
  // loadConfig name what is missing rather than silently emulating Slack.
  const slack: SandboxPlan['slack'] = set(env.SLACK_BOT_TOKEN) ? 'real' : 'local';
  const collab: SandboxPlan['collab'] = set(env.COLLAB_API_URL) ? 'real' : 'emulator';
  if (slack === 'real' && collab === 'real') return undefined;
  if (slack === 'real' && !realSlack) return undefined;
  return { slack, collab };
}

/** How the start line names a plan. */
export function describePlan(plan: SandboxPlan): string {
  const slack = plan.slack === 'local' ? 'local Slack stand-in' : 'real Slack';
  const collab = plan.collab === 'emulator' ? 'emulated collaboration API' : 'real collaboration API';
  return `${slack} + ${collab}`;
}
