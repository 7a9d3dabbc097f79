/**
 * The console's view of the workspace, as each person would see it in Slack: the stand-in's
 * messages (chat.* calls), plus what Slack shows without a Web API call — slash command acks,
 * response_url messages (ephemeral, in_channel, replace_original, delete_original) — and each
 * person's modal stack (views.open / push / update, and the view_submission response actions).
 */
import { nextTs } from '../slack/ids.ts';
import { isRecord } from '../slack/request.ts';
import type { RecordedCall, SlackStandIn, SlackViewObject, StoredMessage } from '../slack/types.ts';
import { compareTs } from '../slack/world.ts';

/** A message as the console's front end draws it. */
export interface ConsoleMessage {
  key: string;
  channel: string;
  ts: string;
  thread_ts?: string;
  user?: string;
  bot: boolean;
  text: string;
  blocks?: unknown[];
  ephemeral: boolean;
  edited: boolean;
  /** what `chat.unfurl` attached, by url: drawn under the message */
  unfurls?: Record<string, unknown>;
}

/** A message Slack shows but the Web API never stored: acks and response_url posts. */
interface ShownMessage {
  key: string;
  channel: string;
  ts: string;
  thread_ts?: string;
  user: string;
  text: string;
  blocks?: unknown[];
  ephemeralFor?: string;
}

/** Where a response_url's messages go, and the message `replace_original` replaces. */
export interface ResponseContext {
  channel: string;
  user: string;
  threadTs?: string;
  original?: string;
}

export type ViewLike = Record<string, unknown> & { id: string };

export interface Found {
  key: string;
  channel: string;
  ephemeral: boolean;
  message: {
    ts: string;
    text: string;
    user?: string;
    bot_id?: string;
    app_id?: string;
    thread_ts?: string;
    blocks?: unknown[];
  };
}

const STORED = 's:';
const SHOWN = 'x:';

function truthy(value: unknown): boolean {
  return value === true || value === 'true';
}

export class ConsoleModel {
  private readonly shown: ShownMessage[] = [];
  /** replace_original / delete_original applied to stored messages (null: deleted) */
  private readonly overrides = new Map<string, { text: string; blocks?: unknown[] } | null>();
  private readonly contexts = new Map<string, ResponseContext>();
  private readonly triggers = new Map<string, string>();
  private readonly stacks = new Map<string, string[]>();
  /** views Slack shows from a view_submission answer (update / push), by id */
  private readonly localViews = new Map<string, ViewLike>();
  private contextSeq = 0;
  private localViewSeq = 0;

  constructor(
    private readonly slack: SlackStandIn,
    private readonly botUserId: string,
  ) {}

  /** A response URL served by the stand-in, remembered with where its messages go. */
  responseUrl(context: ResponseContext): string {
    this.contextSeq += 1;
    const id = `console-${this.contextSeq}-${Date.now().toString(36)}`;
    this.contexts.set(id, context);
    return this.slack.responseUrl(id);
  }

  /** A fresh trigger_id, remembered as this person's (views.open with it opens their modal). */
  trigger(user: string, make: () => string): string {
    const id = make();
    this.triggers.set(id, user);
    return id;
  }

  /** Applies a Web API or response_url call; true if what someone sees may have changed. */
  apply(call: RecordedCall): boolean {
    if (call.method === 'response_url') {
      const id = decodeURIComponent((call.path ?? '').replace(/^\/response\//, ''));
      const context = this.contexts.get(id);
      if (context === undefined || call.status !== 200) return false;
      this.respond(context, call.args);
      return true;
    }
    if (call.response.ok !== true) return call.method.startsWith('chat.');
    const view = isRecord(call.response.view) ? (call.response.view as ViewLike) : undefined;
    if (call.method === 'views.open' || call.method === 'views.push') {
      const user = this.triggers.get(String(call.args.trigger_id ?? ''));
      if (user === undefined || view === undefined) return false;
      const stack = call.method === 'views.open' ? [] : (this.stacks.get(user) ?? []);
      this.stacks.set(user, [...stack, view.id]);
      return true;
    }
    if (call.method === 'views.update' && view !== undefined) this.localViews.delete(view.id);
    return true;
  }

  /** A message an app answered with (ack body or response_url). */
  respond(context: ResponseContext, args: Record<string, unknown>): void {
    const text = typeof args.text === 'string' ? args.text : '';
    const blocks = Array.isArray(args.blocks) ? args.blocks : undefined;
    const original = context.original;
    if (truthy(args.delete_original)) {
      if (original !== undefined) this.remove(original);
      return;
    }
    if (truthy(args.replace_original) && original !== undefined && this.replace(original, text, blocks))
      return;
    const inChannel = args.response_type === 'in_channel';
    const ts = nextTs();
    const message: ShownMessage = {
      key: `${SHOWN}${ts}`,
      channel: context.channel,
      ts,
      user: this.botUserId,
      text,
      ...(blocks ? { blocks } : {}),
      ...(context.threadTs ? { thread_ts: context.threadTs } : {}),
      ...(inChannel ? {} : { ephemeralFor: context.user }),
    };
    this.shown.push(message);
    context.original ??= message.key;
  }

  /** A note only `user` sees, from Slack itself (e.g. a failed slash command). */
  notice(channel: string, user: string, text: string, threadTs?: string): void {
    const ts = nextTs();
    this.shown.push({
      key: `${SHOWN}${ts}`,
      channel,
      ts,
      user: 'USLACKBOT',
      text,
      ephemeralFor: user,
      ...(threadTs ? { thread_ts: threadTs } : {}),
    });
  }

  private replace(key: string, text: string, blocks: unknown[] | undefined): boolean {
    if (key.startsWith(SHOWN)) {
      const message = this.shown.find((m) => m.key === key);
      if (message === undefined) return false;
      message.text = text;
      if (blocks) message.blocks = blocks;
      else delete message.blocks;
      return true;
    }
    if (this.overrides.get(key) === null) return false;
    this.overrides.set(key, { text, ...(blocks ? { blocks } : {}) });
    return true;
  }

  private remove(key: string): void {
    if (key.startsWith(SHOWN)) {
      const index = this.shown.findIndex((m) => m.key === key);
      if (index >= 0) this.shown.splice(index, 1);
    } else {
      this.overrides.set(key, null);
    }
  }

  private stored(): StoredMessage[] {
    return [...this.slack.messages.values()].flat();
  }

  /** A message by key, as an interaction payload carries it. */
  find(key: string): Found | undefined {
    if (key.startsWith(SHOWN)) {
      const m = this.shown.find((s) => s.key === key);
      if (m === undefined) return undefined;
      return {
        key,
        channel: m.channel,
        ephemeral: m.ephemeralFor !== undefined,
        message: {
          ts: m.ts,
          text: m.text,
          user: m.user,
          ...(m.blocks ? { blocks: m.blocks } : {}),
          ...(m.thread_ts ? { thread_ts: m.thread_ts } : {}),
        },
      };
    }
    const ts = key.slice(STORED.length);
    const m = this.stored().find((s) => s.ts === ts);
    const override = this.overrides.get(key);
    if (m === undefined || override === null) return undefined;
    const { channel: _c, ephemeralFor, type: _t, ...rest } = m;
    return {
      key,
      channel: m.channel,
      ephemeral: ephemeralFor !== undefined,
      message: { ...rest, ...(override ?? {}) },
    };
  }

  /** Whether `user` sees messages of `channel` (DMs are the person's own). */
  static canSee(channel: string, user: string): boolean {
    if (channel.startsWith('D')) return channel === `D_${user}` || channel === `D${user}`;
    if (channel.startsWith('G_')) return channel.split('_').includes(user);
    return true;
  }

  /** Everything `user` sees, oldest first. */
  messagesFor(user: string): ConsoleMessage[] {
    const out: ConsoleMessage[] = [];
    for (const m of this.stored()) {
      if (m.ephemeralFor !== undefined && m.ephemeralFor !== user) continue;
      if (!ConsoleModel.canSee(m.channel, user)) continue;
      const key = `${STORED}${m.ts}`;
      const override = this.overrides.get(key);
      if (override === null) continue;
      out.push({
        key,
        channel: m.channel,
        ts: m.ts,
        ...(m.thread_ts ? { thread_ts: m.thread_ts } : {}),
        ...(m.user ? { user: m.user } : {}),
        bot: m.bot_id !== undefined || m.user === this.botUserId,
        text: override?.text ?? m.text,
        ...((override ? override.blocks : m.blocks)
          ? { blocks: (override ? override.blocks : m.blocks)! }
          : {}),
        ephemeral: m.ephemeralFor !== undefined,
        edited: m.edited !== undefined || override !== undefined,
        ...(m.unfurls ? { unfurls: m.unfurls } : {}),
      });
    }
    for (const m of this.shown) {
      if (m.ephemeralFor !== undefined && m.ephemeralFor !== user) continue;
      if (!ConsoleModel.canSee(m.channel, user)) continue;
      out.push({
        key: m.key,
        channel: m.channel,
        ts: m.ts,
        ...(m.thread_ts ? { thread_ts: m.thread_ts } : {}),
        user: m.user,
        bot: true,
        text: m.text,
        ...(m.blocks ? { blocks: m.blocks } : {}),
        ephemeral: m.ephemeralFor !== undefined,
        edited: false,
      });
    }
    return out.sort((a, b) => compareTs(a.ts, b.ts));
  }

  /** A view by id: one Slack showed from a submission answer, else the stand-in's. */
  view(id: string): ViewLike | undefined {
    const stored: SlackViewObject | undefined = this.slack.views.byId.get(id)?.view;
    return this.localViews.get(id) ?? (stored ? { ...stored } : undefined);
  }

  /** The modal on top of `user`'s stack, and how many are below it. */
  modalFor(user: string): { view: ViewLike; depth: number } | undefined {
    const stack = this.stacks.get(user) ?? [];
    const top = stack.at(-1);
    const view = top === undefined ? undefined : this.view(top);
    return view === undefined ? undefined : { view, depth: stack.length };
  }

  topViewId(user: string): string | undefined {
    return (this.stacks.get(user) ?? []).at(-1);
  }

  /** The view_submission answer, applied as Slack would; returns the errors to show, if any. */
  submitted(user: string, viewId: string, answer: unknown): Record<string, string> | undefined {
    const stack = this.stacks.get(user) ?? [];
    const body = isRecord(answer) ? answer : {};
    switch (body.response_action) {
      case 'errors':
        return isRecord(body.errors) ? (body.errors as Record<string, string>) : {};
      case 'update':
        if (isRecord(body.view)) this.localViews.set(viewId, { ...body.view, id: viewId });
        return undefined;
      case 'push': {
        if (!isRecord(body.view)) return undefined;
        this.localViewSeq += 1;
        const id = `V_CONSOLE${this.localViewSeq}`;
        this.localViews.set(id, { ...body.view, id });
        this.stacks.set(user, [...stack, id]);
        return undefined;
      }
      case 'clear':
        this.stacks.delete(user);
        return undefined;
      default:
        this.close(user, viewId);
        return undefined;
    }
  }

  /** Closes `viewId` (and whatever was pushed above it). */
  close(user: string, viewId: string): void {
    const stack = this.stacks.get(user) ?? [];
    const index = stack.indexOf(viewId);
    if (index < 0) return;
    const rest = stack.slice(0, index);
    if (rest.length === 0) this.stacks.delete(user);
    else this.stacks.set(user, rest);
  }
}
