/**
 * The connect modal's submission: checks the base url (https, and a public address unless the
 * operator allows it: collab/outbound.ts), then the key with a harmless call
 * (`listChannels({ limit: 1 })`) before saving it sealed. Problems keep the modal open with the
 * reason under the field concerned. Slack allows 3 s for the answer, so the check has 2.
 */
import type { AllMiddlewareArgs, SlackViewMiddlewareArgs, ViewSubmitAction } from '@slack/bolt';
import { isCollabError } from '../../../collab/errors.ts';
import { INPUTS } from '../../../render/ids.ts';
import { collabClientFor } from '../../../workspaces/workspaces.ts';
import type { ListenerDeps } from '../deps.ts';
import { settingsRefusal } from '../guard.ts';
import { teamOf, ViewSubmissionBody } from '../payloads.ts';
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

export function connectView(deps: ListenerDeps) {
  return async ({ body, ack, client }: Args): Promise<void> => {
    const errors = (e: Errors) => ack({ response_action: 'errors', errors: e as Record<string, string> });
    const read = ViewSubmissionBody.safeParse(body);
    const teamId = read.success ? teamOf(read.data) : undefined;
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
    const baseUrl = value(INPUTS.baseUrl).replace(/\/+$/, '');
    const urlProblem = baseUrlProblem(baseUrl, deps.settings.allowInsecureCollabUrl);
    if (urlProblem) {
      await errors({ [INPUTS.baseUrl.block]: urlProblem });
      return;
    }
    // Only public addresses (or the operator's allow-list): the key is sent to whatever answers.
    const refusedTarget = await deps.settings.collab.guard?.check(baseUrl, { timeoutMs: RESOLVE_MS });
    if (refusedTarget) {
      await errors({ [INPUTS.baseUrl.block]: refusedTarget });
      return;
    }
    let apiKey = value(INPUTS.apiKey);
    const saved = apiKey === '' ? await connections.get(teamId) : undefined;
    if (apiKey === '') {
      if (!saved) {
        await errors({ [INPUTS.apiKey.block]: 'Paste the organisation’s API key.' });
        return;
      }
      apiKey = saved.apiKey;
    }
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
