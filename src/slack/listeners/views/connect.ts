/**
 * The connect modal's submission: checks the base url (https, and a public address unless the
 * operator allows it: collab/outbound.ts), then the key with a harmless call
 * (`listChannels({ limit: 1 })`) before saving it sealed. Problems keep the modal open with the
 * reason under the field concerned. Slack allows 3 s for the answer, so the check has 2.
 * An empty key keeps the saved one only while the URL's origin is unchanged: a saved key is never
 * sent to a server it was not saved for.
 */
import type { AllMiddlewareArgs, SlackViewMiddlewareArgs, ViewSubmitAction } from '@slack/bolt';
import { isCollabError } from '../../../collab/errors.ts';
import { INPUTS } from '../../../render/ids.ts';
import type { ConnectionStore } from '../../../store/connections.ts';
import { collabClientFor } from '../../../workspaces/workspaces.ts';
import { authorisedTeam } from '../authorised.ts';
import type { ListenerDeps } from '../deps.ts';
import { settingsRefusal } from '../guard.ts';
import { ViewSubmissionBody } from '../payloads.ts';
import { STORE_DOWN } from '../shared.ts';
import { baseUrlProblem, publishHome } from '../workspace.ts';

type Args = SlackViewMiddlewareArgs<ViewSubmitAction> & AllMiddlewareArgs;

/** The whole check, connection included; Slack's 3 s hold the rest. */
const CHECK_MS = 2000;
/** Resolving the URL's host for the outbound guard, before the check. */
const RESOLVE_MS = 700;

type Errors = Partial<Record<string, string>>;

/** Why the key or the url did not work, under the field to fix. */
async function checkKey(deps: ListenerDeps, baseUrl: string, apiKey: string): Promise<Errors | undefined> {
  const settings = deps.settings!;
  const client = collabClientFor(baseUrl, apiKey, {
    ...settings.collab,
    connectTimeoutMs: Math.min(settings.collab.connectTimeoutMs, CHECK_MS),
    timeoutMs: Math.min(settings.collab.timeoutMs, CHECK_MS),
  });
  try {
    await client.listChannels({ limit: 1 }, { signal: AbortSignal.timeout(CHECK_MS) });
    return undefined;
  } catch (error) {
    if (!isCollabError(error)) {
      return {
        [INPUTS.baseUrl.block]: 'I could not reach the service at this URL in time. Check it and try again.',
      };
    }
    switch (error.reason) {
      case 'unauthorized':
        return {
          [INPUTS.apiKey.block]: 'The service rejected this API key (HTTP 401). Check it and paste it again.',
        };
      case 'forbidden':
        return {
          [INPUTS.apiKey.block]: 'This API key may not list channels (HTTP 403). Use the organisation’s key.',
        };
      case 'notFound':
        return {
          [INPUTS.baseUrl.block]: 'Nothing answered the API here (HTTP 404). Give the base URL, without /v2.',
        };
      case 'network':
      case 'timeout':
      case 'reset':
        return {
          [INPUTS.baseUrl.block]: 'I could not reach the service at this URL. Check it and try again.',
        };
      case 'invalidResponse':
        return {
          [INPUTS.baseUrl.block]:
            'Something answered, but not like the collaboration API v2. Is this the right URL?',
        };
      default:
        return {
          [INPUTS.baseUrl.block]: `The service answered HTTP ${error.status ?? '?'}. Try again in a minute.`,
        };
    }
  } finally {
    await client.close().catch(() => {});
  }
}

export const SAVED_KEY_UNREADABLE =
  'I could not read the saved key (my store did not answer, or the key no longer opens). Paste the API key to replace it, or try again in a minute.';

export const KEY_FOR_NEW_SERVER =
  'This URL is on another server than the one the saved key belongs to. Paste the API key for it: a saved key is only ever sent to the server it was saved for.';

/**
 * Why the saved key may not go with `baseUrl`, or undefined when it may: a key saved for one
 * origin (scheme, host and port) is never sent to another (OWASP ASVS V6.4), whoever asks.
 */
export function savedKeyProblem(savedBaseUrl: string | undefined, baseUrl: string): string | undefined {
  if (savedBaseUrl === undefined) return undefined;
  try {
    return new URL(savedBaseUrl).origin === new URL(baseUrl).origin ? undefined : KEY_FOR_NEW_SERVER;
  } catch {
    return KEY_FOR_NEW_SERVER;
  }
}

export function connectView(deps: ListenerDeps) {
  return async ({ body, ack, client, context }: Args): Promise<void> => {
    const errors = (e: Errors) => ack({ response_action: 'errors', errors: e as Record<string, string> });
    const read = ViewSubmissionBody.safeParse(body);
    // The workspace whose installation Bolt authorised (and whose admin is checked), never `team.id`.
    const teamId = authorisedTeam(context);
    const connections = deps.store.connections;
    if (!read.success || !teamId || !connections || deps.settings?.mode !== 'multi') {
      await errors({
        [INPUTS.baseUrl.block]: 'Slack sent me something I could not read. Close this and try again.',
      });
      return;
    }
    const userId = read.data.user.id;
    const value = (input: { block: string; action: string }) =>
      (read.data.view.state.values[input.block]?.[input.action]?.value ?? '').trim();

    const refused = await settingsRefusal(deps, client, teamId, userId);
    if (refused) {
      await errors({ [INPUTS.baseUrl.block]: refused });
      return;
    }
    const form = await readForm(deps, connections, teamId, value(INPUTS.baseUrl), value(INPUTS.apiKey));
    if ('errors' in form) {
      await errors(form.errors);
      return;
    }
    const { baseUrl, apiKey } = form;
    const problems = await checkKey(deps, baseUrl, apiKey);
    if (problems) {
      await errors(problems);
      return;
    }
    let before: Awaited<ReturnType<typeof connections.status>>;
    try {
      before = await connections.status(teamId);
      await connections.save(teamId, { baseUrl, apiKey, connectedBy: userId });
    } catch (error) {
      deps.logger.error({ err: error, teamId }, 'could not save the connection');
      await errors({ [INPUTS.baseUrl.block]: STORE_DOWN });
      return;
    }
    await ack();
    await deps.workspaces.invalidate?.(teamId);
    await deps.store.audit
      .record(teamId, { userId, action: before ? 'reconnected' : 'connected', detail: baseUrl })
      .catch((error: unknown) => deps.logger.warn({ err: error }, 'could not write the audit log'));
    deps.logger.info({ teamId, userId, baseUrl }, 'workspace connected to the service');
    await publishHome(deps, client, teamId, userId);
  };
}

/**
 * The url and key to check, or the errors to show: the url must be acceptable (https, a public
 * address), and an empty key means the saved one, only for the origin it was saved for.
 */
async function readForm(
  deps: ListenerDeps,
  connections: ConnectionStore,
  teamId: string,
  typedUrl: string,
  typedKey: string,
): Promise<{ baseUrl: string; apiKey: string } | { errors: Errors }> {
  const settings = deps.settings!;
  const baseUrl = typedUrl.replace(/\/+$/, '');
  const urlProblem = baseUrlProblem(baseUrl, settings.allowInsecureCollabUrl);
  if (urlProblem) return { errors: { [INPUTS.baseUrl.block]: urlProblem } };
  let apiKey = typedKey;
  if (apiKey === '') {
    let saved: Awaited<ReturnType<ConnectionStore['get']>>;
    try {
      saved = await connections.get(teamId);
    } catch (error) {
      deps.logger.error({ err: error, teamId }, 'could not read the saved connection');
      return { errors: { [INPUTS.apiKey.block]: SAVED_KEY_UNREADABLE } };
    }
    const keyProblem = savedKeyProblem(saved?.baseUrl, baseUrl);
    if (keyProblem || !saved) {
      return { errors: { [INPUTS.apiKey.block]: keyProblem ?? 'Paste the organisation’s API key.' } };
    }
    apiKey = saved.apiKey;
  }
  // Only public addresses (or the operator's allow-list): the key is sent to whatever answers.
  const refusedTarget = await settings.collab.guard?.check(baseUrl, { timeoutMs: RESOLVE_MS });
  if (refusedTarget) return { errors: { [INPUTS.baseUrl.block]: refusedTarget } };
  return { baseUrl, apiKey };
}
