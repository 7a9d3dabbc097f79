/**
 * The sandbox console: a node:http server for a small Slack-like page (plain ES modules from
 * `public/`, no bundler). The page never talks to the bot itself: it asks this server, which
 * signs what Slack would send (slash commands, messages, block_actions, shortcuts, suggestions,
 * submissions) with the sandbox's signing secret, posts it to the bot's `/slack/events`, and
 * applies what Slack would show. Changes reach the page as Server-Sent Events, fed by the
 * stand-in's `onCall` and the emulator's events.
 *
 * Who does what: the composer (composer.ts) and the other interactions (interactions.ts) act for
 * the person, through the bot link (bot.ts); the model (model.ts) keeps what Slack shows; the
 * change feed (changes.ts) tells the page; the emulator and workflows panels have their own files.
 * This file only routes.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { listen } from '../listen.ts';
import { BotLink } from './bot.ts';
import { ChangeFeed } from './changes.ts';
import { Composer, SendBody } from './composer.ts';
import { Directory } from './directory.ts';
import { slackEmoji } from './emoji.ts';
import { EmulatorPanel, ReplyBody } from './emulatorPanel.ts';
import { BadRequest, json, readJson, serveStatic, TYPES } from './http.ts';
import {
  ActionBody,
  CloseBody,
  GlobalShortcutBody,
  HomeBody,
  Interactions,
  ShortcutBody,
  SubmitBody,
  SuggestBody,
} from './interactions.ts';
import { ConsoleModel } from './model.ts';
import type { ConsoleOptions } from './options.ts';
import { pageState } from './pageState.ts';
import { RunStepBody, workflowsPanel } from './workflows.ts';

export type { ConsoleOptions } from './options.ts';
export { GLOBAL_SHORTCUT_NAMES, SHORTCUT_NAMES } from './pageState.ts';

export interface SandboxConsole {
  url: string;
  model: ConsoleModel;
  close(): Promise<void>;
}

type Route = (req: IncomingMessage) => Promise<unknown>;

export async function startConsole(options: ConsoleOptions): Promise<SandboxConsole> {
  const { slack, botUserId, teamId } = options;
  const model = new ConsoleModel(slack, botUserId);
  const changes = new ChangeFeed();
  const unsubscribe = slack.onCall((call) => {
    if (model.apply(call)) changes.broadcast('slack');
  });
  const onHandled = () => changes.broadcast('emulator');
  options.emulatorEvents?.on('handled', onHandled);

  const bot = new BotLink({
    botUrl: options.botUrl,
    signingSecret: options.signingSecret,
    teamId,
    botUserId,
  });
  const directory = new Directory(options.users, options.channels);
  const composer = new Composer({
    slack,
    model,
    bot,
    changes,
    directory,
    command: options.command,
    teamId,
    botUserId,
    unfurlDomains: options.unfurlDomains ?? [],
  });
  const interactions = new Interactions({ model, bot, changes, directory, teamId });
  const emulator = new EmulatorPanel(options.emulatorUrl, changes);
  const workflows = workflowsPanel(slack, (event) => bot.event(event));

  const reads: Record<string, (url: URL) => unknown> = {
    '/api/state': (url) => pageState(options, model, url.searchParams.get('user') ?? ''),
    '/api/workflows': () => workflows.list(),
    '/api/emulator': () => emulator.state(),
  };
  const acts: Record<string, Route> = {
    '/api/workflows/run': async (req) => workflows.run(await readJson(req, RunStepBody)),
    '/api/send': async (req) => composer.send(await readJson(req, SendBody)),
    '/api/action': async (req) => interactions.action(await readJson(req, ActionBody)),
    '/api/shortcut': async (req) => interactions.shortcut(await readJson(req, ShortcutBody)),
    '/api/global-shortcut': async (req) =>
      interactions.globalShortcut(await readJson(req, GlobalShortcutBody)),
    '/api/suggest': async (req) => interactions.suggest(await readJson(req, SuggestBody)),
    '/api/submit': async (req) => interactions.submit(await readJson(req, SubmitBody)),
    '/api/close': async (req) => interactions.close(await readJson(req, CloseBody)),
    '/api/home': async (req) => interactions.homeOpened(await readJson(req, HomeBody)),
    '/api/emulator/reply': async (req) => emulator.reply(await readJson(req, ReplyBody)),
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const url = new URL(req.url ?? '/', 'http://console.local');
    const path = url.pathname;
    if (req.method === 'GET') {
      if (await serveStatic(path, res)) return;
      if (path === '/emoji.json') {
        res.writeHead(200, { 'content-type': TYPES.json!, 'cache-control': 'max-age=3600' });
        res.end(JSON.stringify(await slackEmoji()));
        return;
      }
      if (path === '/favicon.ico') {
        res.writeHead(204).end();
        return;
      }
      if (path === '/api/events') return changes.open(req, res);
      const read = reads[path];
      if (read !== undefined) return json(res, 200, await read(url));
    }
    const act = acts[path];
    if (req.method === 'POST' && act !== undefined) return json(res, 200, await act(req));
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
      changes.close();
      return new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}
