/**
 * Socket Mode: with an app token and no signing secret, the bot opens a WebSocket from
 * `apps.connections.open`, acks slash commands over it within the envelope, and the worker's
 * outcome reaches Slack as in HTTP mode.
 */
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type WebSocket, WebSocketServer } from 'ws';
import { loadConfig } from '../../src/config.ts';
import { createLogger } from '../../src/logger.ts';
import { type RunningBot, startBot } from '../../src/runtime.ts';
import { type Emulator, startEmulator } from '../../src/sandbox/emulator/index.ts';
import { type SlackStandIn, startSlackStandIn } from '../../src/sandbox/slack/index.ts';
import { connectRedis, deleteKeys, whenReady } from '../../src/store/redis.ts';
import { REDIS_URL } from '../support/harness.ts';

let server: WebSocketServer;
let emulator: Emulator;
let slack: SlackStandIn;
let bot: RunningBot;
const prefix = `test-${randomBytes(6).toString('hex')}`;
let socket: WebSocket;
const replies: Array<{ envelope_id: string; payload?: { text?: string; response_type?: string } }> = [];
const replyWaiters: Array<() => void> = [];

beforeAll(async () => {
  server = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  const connected = new Promise<WebSocket>((resolve) => {
    server.on('connection', (ws) => {
      ws.on('message', (raw) => {
        replies.push(JSON.parse(String(raw)));
        for (const wake of replyWaiters.splice(0)) wake();
      });
      ws.send(JSON.stringify({ type: 'hello', num_connections: 1, connection_info: { app_id: 'A_LOCAL' } }));
      resolve(ws);
    });
  });
  const { port } = server.address() as AddressInfo;
  emulator = await startEmulator();
  slack = await startSlackStandIn({ socketModeUrl: `ws://127.0.0.1:${port}/link` });
  const config = loadConfig({
    SLACK_APP_TOKEN: 'xapp-test-socket',
    SLACK_BOT_TOKEN: 'xoxb-test-socket',
    SLACK_BOT_USER_ID: 'U_BOT',
    SLACK_API_URL: slack.url,
    COLLAB_API_URL: emulator.url,
    COLLAB_API_KEY: emulator.apiKey,
    REDIS_URL,
    QUEUE_PREFIX: prefix,
    LOG_LEVEL: 'silent',
  });
  bot = await startBot(config, createLogger({ level: 'silent' }));
  socket = await connected;
});

afterAll(async () => {
  await bot?.stop();
  server?.close();
  await emulator?.close();
  await slack?.close();
  const redis = connectRedis(REDIS_URL, 'producer');
  await whenReady(redis);
  await deleteKeys(redis, `${prefix}:*`);
  redis.disconnect();
});

async function reply(envelopeId: string) {
  for (;;) {
    const found = replies.find((r) => r.envelope_id === envelopeId);
    if (found) return found;
    await new Promise<void>((resolve) => replyWaiters.push(resolve));
  }
}

function command(envelopeId: string, text: string) {
  socket.send(
    JSON.stringify({
      envelope_id: envelopeId,
      type: 'slash_commands',
      accepts_response_payload: true,
      payload: {
        token: 'unused',
        team_id: 'T_LOCAL',
        team_domain: 'local',
        channel_id: 'C_GENERAL',
        channel_name: 'general',
        user_id: 'U_ADA',
        user_name: 'ada',
        command: '/collab',
        text,
        api_app_id: 'A_LOCAL',
        response_url: slack.responseUrl(envelopeId),
        trigger_id: `trigger-${envelopeId}`,
      },
    }),
  );
}

describe('Socket Mode', () => {
  it('opens the connection Slack hands out', () => {
    expect(
      slack.calls.some((c) => c.method === 'apps.connections.open' && c.token === 'xapp-test-socket'),
    ).toBe(true);
  });

  it('acks a slash command inside its envelope and delivers the outcome', async () => {
    command('env-help', 'help');
    const help = await reply('env-help');
    expect(help.payload?.text).toMatch(/\/collab/);

    command('env-channels', 'channels');
    const ack = await reply('env-channels');
    expect(ack.payload?.response_type).toBe('ephemeral');
    const outcome = await slack.waitFor(
      (c) => c.method === 'response_url' && c.path === '/response/env-channels',
    );
    expect(JSON.stringify(outcome.args)).toContain('engineering');
  });

  it('answers bad input in the envelope, enqueuing nothing', async () => {
    const before = await bot.queue.queue.count();
    command('env-bad', 'frobnicate');
    const ack = await reply('env-bad');
    expect(ack.payload?.text).toMatch(/don't know/);
    expect(await bot.queue.queue.count()).toBe(before);
  });
});
