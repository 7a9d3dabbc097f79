/** What a Web API method handler of the stand-in is: the call's context in, Slack's answer out. */
import type { Installation, SlackWorld } from './world.ts';

export type ApiResponse = Record<string, unknown> & { ok: boolean };

export interface MethodContext {
  world: SlackWorld;
  args: Record<string, unknown>;
  token: string | undefined;
  installation: Installation;
}

export type Handler = (context: MethodContext) => ApiResponse;

export function fail(error: string, extra: Record<string, unknown> = {}): ApiResponse {
  return { ok: false, error, ...extra };
}
