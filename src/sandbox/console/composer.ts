/**
 * The message composer: what a person writes is, as in Slack, a lifecycle command of the sandbox
 * (`/invite`, `/archive`, …), the app's slash command, another slash command Slack refuses, or a
 * message (with `link_shared` for links under the app's unfurl domains).
 */
import { z } from 'zod';
import { linkShared, messageEvent, newTriggerId, slashCommandBody } from '../slack/index.ts';
import type { SlackStandIn } from '../slack/types.ts';
import type { BotAnswer, BotLink } from './bot.ts';
import type { ChangeFeed } from './changes.ts';
import { slackifyText, splitSlashCommand, unfurlableLinks } from './compose.ts';
import type { Directory } from './directory.ts';
import { applyLifecycle, type LifecycleCommand, lifecycleCommand } from './lifecycle.ts';
import type { ConsoleModel } from './model.ts';

export const SendBody = z.object({
  user: z.string().min(1),
  channel: z.string().min(1),
  text: z.string().min(1).max(40_000),
  thread_ts: z.string().optional(),
});
type Send = z.infer<typeof SendBody>;

export interface ComposerDeps {
  slack: SlackStandIn;
  model: ConsoleModel;
  bot: BotLink;
  changes: ChangeFeed;
  directory: Directory;
  /** the app's slash command */
  command: string;
  teamId: string;
  botUserId: string;
  unfurlDomains: string[];
}

export class Composer {
  constructor(private readonly deps: ComposerDeps) {}

  async send(input: Send): Promise<{ ok: boolean }> {
    const slash = splitSlashCommand(input.text);
    const lifecycle = slash ? lifecycleCommand(slash.command, slash.text) : undefined;
    if (lifecycle) return this.#lifecycle(input, lifecycle);
    if (slash) return this.#slashCommand(input, slash);
    return this.#message(input);
  }

  /** A change Slack makes itself (a member joins, a channel is archived): applied, then told as its event. */
  async #lifecycle(input: Send, lifecycle: LifecycleCommand): Promise<{ ok: boolean }> {
    const { slack, model, bot, changes, directory, teamId, botUserId } = this.deps;
    const event = applyLifecycle(slack, lifecycle, {
      channel: input.channel,
      user: input.user,
      botUserId,
      teamId,
    });
    model.notice(input.channel, input.user, `${directory.user(input.user).real_name} ${lifecycle.said}`);
    changes.broadcast('slack');
    const answer = await bot.event(event as { type: string });
    return { ok: answer.status === 200 };
  }

  async #slashCommand(input: Send, slash: { command: string; text: string }): Promise<{ ok: boolean }> {
    const { model, bot, changes, directory, command, teamId } = this.deps;
    if (slash.command !== command) {
      model.notice(
        input.channel,
        input.user,
        `\`${slash.command}\` is not a valid command. In Slack, you can use \`${command}\` here.`,
        input.thread_ts,
      );
      changes.broadcast('slack');
      return { ok: true };
    }
    const text = slackifyText(slash.text, directory.users, directory.channels, 'command');
    const context = {
      channel: input.channel,
      user: input.user,
      ...(input.thread_ts ? { threadTs: input.thread_ts } : {}),
    };
    const body = slashCommandBody({
      command: slash.command,
      text,
      user_id: input.user,
      user_name: directory.user(input.user).name,
      channel_id: input.channel,
      channel_name: directory.channelRef(input.channel).name,
      team_id: teamId,
      response_url: model.responseUrl(context),
      trigger_id: model.trigger(input.user, newTriggerId),
    });
    let answer: BotAnswer;
    try {
      answer = await bot.post('form', body);
    } catch (error) {
      model.notice(
        input.channel,
        input.user,
        `${slash.command} failed with the error "dispatch_failed" (${String(error)})`,
      );
      changes.broadcast('slack');
      return { ok: false };
    }
    if (answer.status !== 200) {
      model.notice(
        input.channel,
        input.user,
        `${slash.command} failed with the error "http_error_${answer.status}"`,
        input.thread_ts,
      );
    } else if (typeof answer.body === 'object' && answer.body !== null) {
      model.respond(context, answer.body as Record<string, unknown>);
    } else if (typeof answer.body === 'string' && answer.body.trim() !== '') {
      model.respond(context, { text: answer.body });
    }
    changes.broadcast('slack');
    return { ok: answer.status === 200 };
  }

  async #message(input: Send): Promise<{ ok: boolean }> {
    const { slack, bot, changes, directory, teamId, unfurlDomains } = this.deps;
    const text = slackifyText(input.text, directory.users, directory.channels, 'message');
    const thread = input.thread_ts ? { thread_ts: input.thread_ts } : {};
    const stored = slack.seedMessage(input.channel, { user: input.user, text, ...thread });
    changes.broadcast('slack');
    const answer = await bot.event(
      messageEvent({
        channel: input.channel,
        user: input.user,
        text,
        ts: stored.ts,
        team: teamId,
        ...thread,
      }),
    );
    // Slack tells the app of links to its unfurl domains in a separate event.
    const links = unfurlableLinks(text, unfurlDomains);
    if (links.length > 0) {
      await bot.event(
        linkShared({ channel: input.channel, user: input.user, message_ts: stored.ts, ...thread, links }),
      );
    }
    return { ok: answer.status === 200 };
  }
}
