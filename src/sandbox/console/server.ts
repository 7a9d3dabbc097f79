/**
 * The sandbox console: a node:http server for a small Slack-like page (plain ES modules from
 * `public/`, no bundler). The page never talks to the bot itself: it asks this server, which
 * signs what Slack would send (slash commands, messages, block_actions, shortcuts, suggestions,
 * submissions) with the sandbox's signing secret, posts it to the bot's `/slack/events`, and
 * applies what Slack would show. Changes reach the page as Server-Sent Events, fed by the
 * stand-in's `onCall` and the emulator's events.
 */
import type { EventEmitter } from 'node:events';
import { readFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import type { Logger } from '../../logger.ts';
import { SHORTCUTS } from '../../render/ids.ts';
import type { EmulatorEventMap } from '../emulator/types.ts';
import { listen } from '../listen.ts';
import {
  appHomeOpened,
  blockActions,
  blockSuggestion,
  eventBody,
  globalShortcut,
  interactionBody,
  linkShared,
  messageEvent,
  messageShortcut,
  newTriggerId,
  signSlackRequest,
  slashCommandBody,
  viewOutput,
  viewSubmission,
} from '../slack/index.ts';
import { readBody } from '../slack/request.ts';
import type { SlackChannel, SlackStandIn, SlackUser } from '../slack/types.ts';
import { slackifyText, splitSlashCommand, unfurlableLinks } from './compose.ts';
import { slackEmoji } from './emoji.ts';
import { applyLifecycle, lifecycleCommand } from './lifecycle.ts';
import { ConsoleModel, type Found, type ViewLike } from './model.ts';
import { RunStepBody, workflowsPanel } from './workflows.ts';

const PUBLIC_DIR = join(dirname(fileURLToPath(import.meta.url)), 'public');
const STATIC_FILES: Record<string, string> = {
  '/': 'index.html',
  '/index.html': 'index.html',
  '/app.js': 'app.js',
  '/blockkit.js': 'blockkit.js',
  '/style.css': 'style.css',
  '/workflows.js': 'workflows.js',
};
const TYPES: Record<string, string> = {
  html: 'text/html; charset=utf-8',
  js: 'text/javascript; charset=utf-8',
  css: 'text/css; charset=utf-8',
  json: 'application/json; charset=utf-8',
};

/** The names of the manifest's message shortcuts, by callback id (slack-manifest.yml). */
export const SHORTCUT_NAMES: Record<string, string> = {
  [SHORTCUTS.createPostFromMessage]: 'Create post from message',
  [SHORTCUTS.createPostFromThread]: 'Create post from thread',
  [SHORTCUTS.commentOnPost]: 'Comment on post',
  [SHORTCUTS.resolvePost]: 'Resolve post',
};

/** The manifest's global shortcuts (the composer's shortcuts menu), by callback id. */
export const GLOBAL_SHORTCUT_NAMES: Record<string, string> = {
  [SHORTCUTS.newPost]: 'New post',
};

export interface ConsoleOptions {
  port?: number;
  host?: string;
  slack: SlackStandIn;
  /** the bot's Slack endpoint, `http://…/slack/events` */
  botUrl: string;
  signingSecret: string;
  command: string;
  teamId: string;
  botUserId: string;
  users: SlackUser[];
  channels: SlackChannel[];
  /** the emulator, for the state panel (absent with a real collaboration API) */
  emulatorUrl?: string;
  emulatorEvents?: EventEmitter<EmulatorEventMap>;
  /** the app's unfurl domains: a message with a link under one sends `link_shared`, as Slack does */
  unfurlDomains?: string[];
  logger: Logger;
}

export interface SandboxConsole {
  url: string;
  model: ConsoleModel;
  close(): Promise<void>;
}

const User = z.string().min(1);
const SendBody = z.object({
  user: User,
  channel: z.string().min(1),
  text: z.string().min(1).max(40_000),
  thread_ts: z.string().optional(),
});
const ActionBody = z.object({
  user: User,
  key: z.string().optional(),
  viewId: z.string().optional(),
  action: z.looseObject({ action_id: z.string(), block_id: z.string(), type: z.string() }),
  values: z.record(z.string(), z.record(z.string(), z.unknown())).optional(),
});
const ShortcutBody = z.object({ user: User, key: z.string(), callback_id: z.string() });
const GlobalShortcutBody = z.object({ user: User, callback_id: z.string() });
const SuggestBody = z.object({
  user: User,
  viewId: z.string().optional(),
  key: z.string().optional(),
  action_id: z.string(),
  block_id: z.string(),
  value: z.string(),
  values: z.record(z.string(), z.record(z.string(), z.unknown())).optional(),
});
const SubmitBody = z.object({
  user: User,
  viewId: z.string(),
  values: z.record(z.string(), z.record(z.string(), z.unknown())),
});
const CloseBody = z.object({ user: User, viewId: z.string() });
const HomeBody = z.object({ user: User });
/** A message written in a thread of the emulator by one of its members (the side panel's reply form). */
const ReplyBody = z.object({
  threadId: z.string().min(1),
  member: z.string().min(1),
  text: z.string().trim().min(1).max(40_000),
});

class BadRequest extends Error {}

interface BotAnswer {
  status: number;
  body: unknown;
}

export async function startConsole(options: ConsoleOptions): Promise<SandboxConsole> {
  const { slack, botUserId, teamId } = options;
  const model = new ConsoleModel(slack, botUserId);
  const clients = new Set<ServerResponse>();
  let seq = 0;

  const broadcast = (what: 'slack' | 'emulator') => {
    seq += 1;
    const frame = `event: change\ndata: ${JSON.stringify({ seq, what })}\n\n`;
    for (const res of clients) res.write(frame);
  };
  const unsubscribe = slack.onCall((call) => {
    if (model.apply(call)) broadcast('slack');
  });
  const onHandled = () => broadcast('emulator');
  options.emulatorEvents?.on('handled', onHandled);

  const userOf = (id: string): SlackUser => {
    const user = options.users.find((u) => u.id === id);
    if (user === undefined) throw new BadRequest(`unknown user ${id}`);
    return user;
  };
  const userRef = (id: string) => ({ id, name: userOf(id).name, username: userOf(id).name });
  const channelRef = (id: string) => ({
    id,
    name: options.channels.find((c) => c.id === id)?.name ?? (id.startsWith('D') ? 'directmessage' : id),
  });

  const post = async (kind: 'form' | 'json', body: string): Promise<BotAnswer> => {
    const headers = {
      'content-type': kind === 'form' ? 'application/x-www-form-urlencoded' : 'application/json',
      ...signSlackRequest(options.signingSecret, body),
    };
    const res = await fetch(options.botUrl, {
      method: 'POST',
      headers,
      body,
      signal: AbortSignal.timeout(10_000),
    });
    const text = await res.text();
    let parsed: unknown = text;
    if (text.trim().startsWith('{')) {
      try {
        parsed = JSON.parse(text) as unknown;
      } catch {
        parsed = text;
      }
    }
    return { status: res.status, body: parsed };
  };
  const interact = (payload: object) => post('form', interactionBody(payload));

  const viewWithValues = (view: ViewLike, values: Record<string, Record<string, unknown>> | undefined) => ({
    ...(view as ViewLike & { callback_id: string }),
    callback_id: typeof view.callback_id === 'string' ? view.callback_id : '',
    state: { values: values ?? {} },
  });

  const findMessage = (key: string | undefined): Found => {
    const found = key === undefined ? undefined : model.find(key);
    if (found === undefined) throw new BadRequest('that message is gone');
    return found;
  };

  /* ---------------------------------------------------------------- handlers */

  const send = async (input: z.infer<typeof SendBody>) => {
    const users = options.users;
    const slash = splitSlashCommand(input.text);
    const lifecycle = slash ? lifecycleCommand(slash.command, slash.text) : undefined;
    if (lifecycle) {
      const event = applyLifecycle(slack, lifecycle, {
        channel: input.channel,
        user: input.user,
        botUserId,
        teamId,
      });
      model.notice(input.channel, input.user, `${userOf(input.user).real_name} ${lifecycle.said}`);
      broadcast('slack');
      const answer = await post('json', eventBody(event as { type: string }, { team_id: teamId, botUserId }));
      return { ok: answer.status === 200 };
    }
    if (slash) {
      if (slash.command !== options.command) {
        model.notice(
          input.channel,
          input.user,
          `\`${slash.command}\` is not a valid command. In Slack, you can use \`${options.command}\` here.`,
          input.thread_ts,
        );
        broadcast('slack');
        return { ok: true };
      }
      const text = slackifyText(slash.text, users, options.channels, 'command');
      const context = {
        channel: input.channel,
        user: input.user,
        ...(input.thread_ts ? { threadTs: input.thread_ts } : {}),
      };
      const body = slashCommandBody({
        command: slash.command,
        text,
        user_id: input.user,
        user_name: userOf(input.user).name,
        channel_id: input.channel,
        channel_name: channelRef(input.channel).name,
        team_id: teamId,
        response_url: model.responseUrl(context),
        trigger_id: model.trigger(input.user, newTriggerId),
      });
      let answer: BotAnswer;
      try {
        answer = await post('form', body);
      } catch (error) {
        model.notice(
          input.channel,
          input.user,
          `${slash.command} failed with the error "dispatch_failed" (${String(error)})`,
        );
        broadcast('slack');
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
      broadcast('slack');
      return { ok: answer.status === 200 };
    }

    const text = slackifyText(input.text, users, options.channels, 'message');
    const stored = slack.seedMessage(input.channel, {
      user: input.user,
      text,
      ...(input.thread_ts ? { thread_ts: input.thread_ts } : {}),
    });
    broadcast('slack');
    const event = messageEvent({
      channel: input.channel,
      user: input.user,
      text,
      ts: stored.ts,
      team: teamId,
      ...(input.thread_ts ? { thread_ts: input.thread_ts } : {}),
    });
    const answer = await post('json', eventBody(event, { team_id: teamId, botUserId }));
    // Slack tells the app of links to its unfurl domains in a separate event.
    const links = unfurlableLinks(text, options.unfurlDomains ?? []);
    if (links.length > 0) {
      const shared = linkShared({
        channel: input.channel,
        user: input.user,
        message_ts: stored.ts,
        ...(input.thread_ts ? { thread_ts: input.thread_ts } : {}),
        links,
      });
      await post('json', eventBody(shared, { team_id: teamId, botUserId }));
    }
    return { ok: answer.status === 200 };
  };

  const action = async (input: z.infer<typeof ActionBody>) => {
    const { action_id, block_id, type, ...rest } = input.action;
    const act = { action_id, block_id, type, ...rest };
    const trigger_id = model.trigger(input.user, newTriggerId);
    if (input.viewId !== undefined) {
      const view = model.view(input.viewId);
      if (view === undefined) throw new BadRequest('that view is gone');
      const answer = await interact(
        blockActions({
          user: userRef(input.user),
          actions: [act],
          trigger_id,
          view: viewWithValues(view, input.values),
          team_id: teamId,
        }),
      );
      return { ok: answer.status === 200 };
    }
    const found = findMessage(input.key);
    const response_url = model.responseUrl({
      channel: found.channel,
      user: input.user,
      original: found.key,
      ...(found.message.thread_ts ? { threadTs: found.message.thread_ts } : {}),
    });
    const answer = await interact(
      blockActions({
        user: userRef(input.user),
        channel: channelRef(found.channel),
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
  };

  const shortcut = async (input: z.infer<typeof ShortcutBody>) => {
    const found = findMessage(input.key);
    const answer = await interact(
      messageShortcut({
        callback_id: input.callback_id,
        user: userRef(input.user),
        channel: channelRef(found.channel),
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
      broadcast('slack');
    }
    return { ok: answer.status === 200 };
  };

  const globalShortcutUsed = async (input: z.infer<typeof GlobalShortcutBody>) => {
    const answer = await interact(
      globalShortcut({
        callback_id: input.callback_id,
        user: userRef(input.user),
        trigger_id: model.trigger(input.user, newTriggerId),
        team_id: teamId,
      }),
    );
    return { ok: answer.status === 200 };
  };

  const suggest = async (input: z.infer<typeof SuggestBody>) => {
    const view = input.viewId === undefined ? undefined : model.view(input.viewId);
    const found = input.key === undefined ? undefined : model.find(input.key);
    const answer = await interact(
      blockSuggestion({
        action_id: input.action_id,
        block_id: input.block_id,
        value: input.value,
        user: userRef(input.user),
        team_id: teamId,
        ...(view ? { view: viewWithValues(view, input.values) } : {}),
        ...(found
          ? {
              channel: channelRef(found.channel),
              container: { type: 'message', message_ts: found.message.ts, channel_id: found.channel },
            }
          : {}),
      }),
    );
    const body = typeof answer.body === 'object' && answer.body !== null ? answer.body : {};
    return { ok: answer.status === 200, ...body };
  };

  const submit = async (input: z.infer<typeof SubmitBody>) => {
    const view = model.view(input.viewId);
    if (view === undefined) throw new BadRequest('that view is gone');
    const answer = await interact(
      viewSubmission({
        user: userRef(input.user),
        view: viewWithValues(view, input.values),
        trigger_id: model.trigger(input.user, newTriggerId),
        team_id: teamId,
      }),
    );
    if (answer.status !== 200) {
      return { ok: false, errors: { '': `The app did not accept the form (HTTP ${answer.status}).` } };
    }
    const errors = model.submitted(input.user, input.viewId, answer.body);
    broadcast('slack');
    return errors === undefined ? { ok: true } : { ok: false, errors };
  };

  const close = async (input: z.infer<typeof CloseBody>) => {
    const view = model.view(input.viewId);
    model.close(input.user, input.viewId);
    broadcast('slack');
    if (view?.notify_on_close === true) {
      const output = viewOutput(viewWithValues(view, undefined), { team_id: teamId });
      await interact({
        type: 'view_closed',
        team: { id: teamId, domain: 'local' },
        user: userRef(input.user),
        api_app_id: 'A_LOCAL',
        token: 'local-verification-token',
        view: output,
        is_cleared: false,
        is_enterprise_install: false,
      });
    }
    return { ok: true };
  };

  const homeOpened = async (input: z.infer<typeof HomeBody>) => {
    const answer = await post(
      'json',
      eventBody(appHomeOpened({ user: input.user }), { team_id: teamId, botUserId }),
    );
    return { ok: answer.status === 200 };
  };

  const state = (requested: string) => {
    const user = options.users.some((u) => u.id === requested) ? requested : (options.users[0]?.id ?? '');
    const home = slack.views.home.get(user)?.view;
    const modal = model.modalFor(user);
    const dmChannels = [`D_${user}`];
    return {
      me: user,
      teamName: 'Local Workspace',
      botUserId,
      appName: 'Collab',
      command: options.command,
      users: options.users.map((u) => ({
        id: u.id,
        name: u.name,
        real_name: u.real_name,
        display_name: u.profile.display_name || u.real_name,
        tz: u.tz,
      })),
      channels: [
        ...options.channels.map((c) => ({ id: c.id, name: c.name, kind: 'channel' })),
        ...dmChannels.map((id) => ({ id, name: 'Collab', kind: 'app' })),
      ],
      shortcuts: Object.entries(SHORTCUT_NAMES).map(([callback_id, name]) => ({ callback_id, name })),
      globalShortcuts: Object.entries(GLOBAL_SHORTCUT_NAMES).map(([callback_id, name]) => ({
        callback_id,
        name,
      })),
      messages: model.messagesFor(user),
      modal: modal ?? null,
      home: home ?? null,
      emulator: options.emulatorUrl !== undefined,
    };
  };

  const emulatorState = async () => {
    if (options.emulatorUrl === undefined) return { available: false };
    const res = await fetch(`${options.emulatorUrl}/_emulator/state`, { signal: AbortSignal.timeout(5000) });
    return { available: true, state: (await res.json()) as unknown };
  };

  /** Through the emulator's control API, as that member: the bot sees it like any person's message. */
  const reply = async (input: z.infer<typeof ReplyBody>) => {
    if (options.emulatorUrl === undefined) {
      throw new BadRequest('the bot talks to a real collaboration API: reply there');
    }
    const res = await fetch(`${options.emulatorUrl}/_emulator/act`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        as: input.member,
        op: 'createMessage',
        args: { thread_id: input.threadId, content_markdown: input.text },
      }),
      signal: AbortSignal.timeout(5000),
    });
    const body = (await res.json().catch(() => ({}))) as { message?: unknown };
    if (!res.ok) {
      const why = typeof body.message === 'string' ? body.message : `HTTP ${res.status}`;
      if (res.status < 500) throw new BadRequest(`the emulator refused the message: ${why}`);
      throw new Error(`the emulator failed: ${why}`);
    }
    // Control requests raise no emulator event: the panel hears of it here.
    broadcast('emulator');
    return { ok: true, message: body };
  };

  /* ------------------------------------------------------------------ routing */

  const json = (res: ServerResponse, status: number, body: unknown) => {
    const text = JSON.stringify(body);
    res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' });
    res.end(text);
  };

  const readJson = async <S extends z.ZodType>(req: IncomingMessage, schema: S): Promise<z.infer<S>> => {
    const raw = await readBody(req);
    let value: unknown;
    try {
      value = JSON.parse(raw) as unknown;
    } catch {
      throw new BadRequest('malformed JSON');
    }
    const parsed = schema.safeParse(value);
    if (!parsed.success)
      throw new BadRequest(parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; '));
    return parsed.data;
  };

  const workflows = workflowsPanel(slack, (event) =>
    post('json', eventBody(event, { team_id: teamId, botUserId })),
  );

  const routes: Record<string, (req: IncomingMessage) => Promise<unknown>> = {
    '/api/workflows/run': async (req) => workflows.run(await readJson(req, RunStepBody)),
    '/api/send': async (req) => send(await readJson(req, SendBody)),
    '/api/action': async (req) => action(await readJson(req, ActionBody)),
    '/api/shortcut': async (req) => shortcut(await readJson(req, ShortcutBody)),
    '/api/global-shortcut': async (req) => globalShortcutUsed(await readJson(req, GlobalShortcutBody)),
    '/api/suggest': async (req) => suggest(await readJson(req, SuggestBody)),
    '/api/submit': async (req) => submit(await readJson(req, SubmitBody)),
    '/api/close': async (req) => close(await readJson(req, CloseBody)),
    '/api/home': async (req) => homeOpened(await readJson(req, HomeBody)),
    '/api/emulator/reply': async (req) => reply(await readJson(req, ReplyBody)),
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const url = new URL(req.url ?? '/', 'http://console.local');
    const path = url.pathname;
    if (req.method === 'GET' && path in STATIC_FILES) {
      const file = STATIC_FILES[path]!;
      const body = await readFile(join(PUBLIC_DIR, file));
      res.writeHead(200, {
        'content-type': TYPES[file.split('.').pop() ?? ''] ?? 'text/plain',
        'cache-control': 'no-cache',
      });
      res.end(body);
      return;
    }
    if (req.method === 'GET' && path === '/emoji.json') {
      res.writeHead(200, { 'content-type': TYPES.json!, 'cache-control': 'max-age=3600' });
      res.end(JSON.stringify(await slackEmoji()));
      return;
    }
    if (req.method === 'GET' && path === '/favicon.ico') {
      res.writeHead(204).end();
      return;
    }
    if (req.method === 'GET' && path === '/api/events') {
      res.writeHead(200, {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-store',
        connection: 'keep-alive',
      });
      res.write(`retry: 1000\nevent: change\ndata: ${JSON.stringify({ seq, what: 'hello' })}\n\n`);
      clients.add(res);
      req.on('close', () => clients.delete(res));
      return;
    }
    if (req.method === 'GET' && path === '/api/state') {
      return json(res, 200, state(url.searchParams.get('user') ?? ''));
    }
    if (req.method === 'GET' && path === '/api/workflows') {
      return json(res, 200, workflows.list());
    }
    if (req.method === 'GET' && path === '/api/emulator') {
      return json(res, 200, await emulatorState());
    }
    const route = routes[path];
    if (req.method === 'POST' && route !== undefined) {
      return json(res, 200, await route(req));
    }
    req.resume();
    json(res, 404, { ok: false, error: 'not_found' });
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (error instanceof BadRequest) return json(res, 400, { ok: false, error: error.message });
      options.logger.warn({ err: error, url: req.url }, 'console request failed');
      if (!res.headersSent) json(res, 500, { ok: false, error: String(error) });
      else res.end();
    });
  });
  const host = options.host ?? '127.0.0.1';
  const { port } = await listen(server, options.port ?? 0, host);

  return {
    url: `http://${host}:${port}`,
    model,
    close() {
      unsubscribe();
      options.emulatorEvents?.off('handled', onHandled);
      for (const res of clients) res.end();
      clients.clear();
      return new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}
