/**
 * What a person does on the page besides writing: buttons and menus, shortcuts, option lists,
 * modal submissions and closings, opening App Home. Each is sent to the bot as Slack sends it,
 * with a response_url and trigger_id the stand-in honours, and its answer applied as Slack would.
 */
import { z } from 'zod';
import {
  appHomeOpened,
  blockActions,
  blockSuggestion,
  globalShortcut,
  messageShortcut,
  newTriggerId,
  viewOutput,
  viewSubmission,
} from '../slack/index.ts';
import type { BotLink } from './bot.ts';
import type { ChangeFeed } from './changes.ts';
import type { Directory } from './directory.ts';
import { BadRequest } from './http.ts';
import type { ConsoleModel, Found, ViewLike } from './model.ts';

const User = z.string().min(1);
const Values = z.record(z.string(), z.record(z.string(), z.unknown()));
export const ActionBody = z.object({
  user: User,
  key: z.string().optional(),
  viewId: z.string().optional(),
  action: z.looseObject({ action_id: z.string(), block_id: z.string(), type: z.string() }),
  values: Values.optional(),
});
export const ShortcutBody = z.object({ user: User, key: z.string(), callback_id: z.string() });
export const GlobalShortcutBody = z.object({ user: User, callback_id: z.string() });
export const SuggestBody = z.object({
  user: User,
  viewId: z.string().optional(),
  key: z.string().optional(),
  action_id: z.string(),
  block_id: z.string(),
  value: z.string(),
  values: Values.optional(),
});
export const SubmitBody = z.object({ user: User, viewId: z.string(), values: Values });
export const CloseBody = z.object({ user: User, viewId: z.string() });
export const HomeBody = z.object({ user: User });

type Values = z.infer<typeof Values>;

export interface InteractionsDeps {
  model: ConsoleModel;
  bot: BotLink;
  changes: ChangeFeed;
  directory: Directory;
  teamId: string;
}

export class Interactions {
  constructor(private readonly deps: InteractionsDeps) {}

  async action(input: z.infer<typeof ActionBody>): Promise<{ ok: boolean }> {
    const { model, bot, directory, teamId } = this.deps;
    const { action_id, block_id, type, ...rest } = input.action;
    const act = { action_id, block_id, type, ...rest };
    const trigger_id = model.trigger(input.user, newTriggerId);
    if (input.viewId !== undefined) {
      const view = model.view(input.viewId);
      if (view === undefined) throw new BadRequest('that view is gone');
      const answer = await bot.interact(
        blockActions({
          user: directory.userRef(input.user),
          actions: [act],
          trigger_id,
          view: withValues(view, input.values),
          team_id: teamId,
        }),
      );
      return { ok: answer.status === 200 };
    }
    const found = this.#message(input.key);
    const response_url = model.responseUrl({
      channel: found.channel,
      user: input.user,
      original: found.key,
      ...(found.message.thread_ts ? { threadTs: found.message.thread_ts } : {}),
    });
    const answer = await bot.interact(
      blockActions({
        user: directory.userRef(input.user),
        channel: directory.channelRef(found.channel),
        // Slack sends no message for an ephemeral one, only the container.
        ...(found.ephemeral ? {} : { message: found.message }),
        actions: [act],
        response_url,
        trigger_id,
        container: {
          type: 'message',
          message_ts: found.message.ts,
          channel_id: found.channel,
          is_ephemeral: found.ephemeral,
          ...(found.message.thread_ts ? { thread_ts: found.message.thread_ts } : {}),
        },
        ...(input.values ? { state: { values: input.values as never } } : {}),
        team_id: teamId,
      }),
    );
    return { ok: answer.status === 200 };
  }

  async shortcut(input: z.infer<typeof ShortcutBody>): Promise<{ ok: boolean }> {
    const { model, bot, changes, directory, teamId } = this.deps;
    const found = this.#message(input.key);
    const answer = await bot.interact(
      messageShortcut({
        callback_id: input.callback_id,
        user: directory.userRef(input.user),
        channel: directory.channelRef(found.channel),
        message: found.message,
        trigger_id: model.trigger(input.user, newTriggerId),
        response_url: model.responseUrl({
          channel: found.channel,
          user: input.user,
          ...(found.message.thread_ts ? { threadTs: found.message.thread_ts } : {}),
        }),
        team_id: teamId,
      }),
    );
    if (answer.status !== 200) {
      model.notice(found.channel, input.user, `The shortcut failed (HTTP ${answer.status}).`);
      changes.broadcast('slack');
    }
    return { ok: answer.status === 200 };
  }

  async globalShortcut(input: z.infer<typeof GlobalShortcutBody>): Promise<{ ok: boolean }> {
    const { model, bot, directory, teamId } = this.deps;
    const answer = await bot.interact(
      globalShortcut({
        callback_id: input.callback_id,
        user: directory.userRef(input.user),
        trigger_id: model.trigger(input.user, newTriggerId),
        team_id: teamId,
      }),
    );
    return { ok: answer.status === 200 };
  }

  async suggest(input: z.infer<typeof SuggestBody>): Promise<{ ok: boolean }> {
    const { model, bot, directory, teamId } = this.deps;
    const view = input.viewId === undefined ? undefined : model.view(input.viewId);
    const found = input.key === undefined ? undefined : model.find(input.key);
    const answer = await bot.interact(
      blockSuggestion({
        action_id: input.action_id,
        block_id: input.block_id,
        value: input.value,
        user: directory.userRef(input.user),
        team_id: teamId,
        ...(view ? { view: withValues(view, input.values) } : {}),
        ...(found
          ? {
              channel: directory.channelRef(found.channel),
              container: { type: 'message', message_ts: found.message.ts, channel_id: found.channel },
            }
          : {}),
      }),
    );
    const body = typeof answer.body === 'object' && answer.body !== null ? answer.body : {};
    return { ok: answer.status === 200, ...body };
  }

  async submit(
    input: z.infer<typeof SubmitBody>,
  ): Promise<{ ok: boolean; errors?: Record<string, string> | undefined }> {
    const { model, bot, changes, directory, teamId } = this.deps;
    const view = model.view(input.viewId);
    if (view === undefined) throw new BadRequest('that view is gone');
    const answer = await bot.interact(
      viewSubmission({
        user: directory.userRef(input.user),
        view: withValues(view, input.values),
        trigger_id: model.trigger(input.user, newTriggerId),
        team_id: teamId,
      }),
    );
    if (answer.status !== 200) {
      return { ok: false, errors: { '': `The app did not accept the form (HTTP ${answer.status}).` } };
    }
    const errors = model.submitted(input.user, input.viewId, answer.body);
    changes.broadcast('slack');
    return errors === undefined ? { ok: true } : { ok: false, errors };
  }

  async close(input: z.infer<typeof CloseBody>): Promise<{ ok: true }> {
    const { model, bot, changes, directory, teamId } = this.deps;
    const view = model.view(input.viewId);
    model.close(input.user, input.viewId);
    changes.broadcast('slack');
    if (view?.notify_on_close === true) {
      const output = viewOutput(withValues(view, undefined), { team_id: teamId });
      await bot.interact({
        type: 'view_closed',
        team: { id: teamId, domain: 'local' },
        user: directory.userRef(input.user),
        api_app_id: 'A_LOCAL',
        token: 'local-verification-token',
        view: output,
        is_cleared: false,
        is_enterprise_install: false,
      });
    }
    return { ok: true };
  }

  async homeOpened(input: z.infer<typeof HomeBody>): Promise<{ ok: boolean }> {
    const answer = await this.deps.bot.event(appHomeOpened({ user: input.user }));
    return { ok: answer.status === 200 };
  }

  #message(key: string | undefined): Found {
    const found = key === undefined ? undefined : this.deps.model.find(key);
    if (found === undefined) throw new BadRequest('that message is gone');
    return found;
  }
}

/** A view as Slack sends it back: with the state of its inputs. */
function withValues(view: ViewLike, values: Values | undefined) {
  return {
    ...(view as ViewLike & { callback_id: string }),
    callback_id: typeof view.callback_id === 'string' ? view.callback_id : '',
    state: { values: values ?? {} },
  };
}
