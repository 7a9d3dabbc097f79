/**
 * slack-manifest.yml and the code agree: every command, shortcut callback id and event the code
 * registers is in the manifest, and everything the manifest subscribes to has a listener. The
 * registrations are read through the public seam `registerListeners(app, deps)`, given an app
 * that records them. The bot scopes are the code's list (src/slack/scopes.ts), each justified in
 * docs/install.md; every shortcut is in docs/using.md.
 */
import { readFileSync } from 'node:fs';
import type { App } from '@slack/bolt';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { CONFIG_DOCS, loadConfig } from '../src/config.ts';
import { WORKFLOW_STEPS } from '../src/operations/workflowSteps.ts';
import { INSTALL_PATH, REDIRECT_PATH } from '../src/slack/app.ts';
import { SUBCOMMANDS } from '../src/slack/listeners/commands/grammar.ts';
import type { ListenerDeps } from '../src/slack/listeners/deps.ts';
import { registerListeners } from '../src/slack/listeners/index.ts';
import { BOT_SCOPES } from '../src/slack/scopes.ts';

interface ManifestParameter {
  type: string;
  items?: { type: string };
  title: string;
  description?: string;
  is_required?: boolean;
}

interface Manifest {
  features: {
    slash_commands: Array<{ command: string; url: string; usage_hint?: string }>;
    shortcuts: Array<{ name: string; callback_id: string; type: string }>;
    unfurl_domains?: string[];
    app_home: { home_tab_enabled: boolean };
  };
  oauth_config: { redirect_urls: string[]; scopes: { bot: string[] } };
  functions?: Record<
    string,
    {
      title: string;
      description: string;
      input_parameters: Record<string, ManifestParameter>;
      output_parameters: Record<string, ManifestParameter>;
    }
  >;
  settings: {
    org_deploy_enabled?: boolean;
    function_runtime?: string;
    event_subscriptions: { request_url: string; bot_events: string[] };
    interactivity: { is_enabled: boolean; request_url: string; message_menu_options_url: string };
  };
}

const manifest = parse(readFileSync(new URL('../slack-manifest.yml', import.meta.url), 'utf8')) as Manifest;
const usingPage = readFileSync(new URL('../docs/using.md', import.meta.url), 'utf8');
const installPage = readFileSync(new URL('../docs/install.md', import.meta.url), 'utf8');

type Registration = { kind: string; matcher: unknown };

/** The field of a matcher that a routing listener (listeners/route.ts) looks its handler up by. */
const ROUTED_BY: Record<string, string> = {
  action: 'action_id',
  view: 'callback_id',
  shortcut: 'callback_id',
};

function registrations(): Registration[] {
  const seen: Registration[] = [];
  const recorder = new Proxy(
    {},
    {
      get:
        (_target, kind) =>
        (matcher: unknown, ...listeners: unknown[]) => {
          const routed = listeners.find(
            (l): l is { ids: readonly string[] } =>
              typeof l === 'function' && Array.isArray((l as { ids?: unknown }).ids),
          );
          if (!routed) {
            seen.push({ kind: String(kind), matcher });
            return;
          }
          // One listener routing by id stands for one registration per id it answers.
          for (const id of routed.ids) {
            const field = ROUTED_BY[String(kind)];
            seen.push({
              kind: String(kind),
              matcher: field ? { ...(matcher as object), [field]: id } : id,
            });
          }
        },
    },
  ) as App;
  const config = loadConfig({
    SLACK_SIGNING_SECRET: 'test-signing',
    SLACK_BOT_TOKEN: 'xoxb-test-manifest',
    COLLAB_API_URL: 'https://collab.example.com',
    COLLAB_API_KEY: 'test-key',
  });
  registerListeners(recorder, { command: config.slack.slashCommand } as ListenerDeps);
  return seen;
}

const field = (matcher: unknown, name: string): string | undefined =>
  typeof matcher === 'object' && matcher !== null && name in matcher
    ? String((matcher as Record<string, unknown>)[name])
    : undefined;

/** `message` events arrive as the manifest's message.<channel type> subscriptions. */
const MESSAGE_SUBSCRIPTIONS = ['message.channels', 'message.groups', 'message.im', 'message.mpim'];

describe('slack-manifest.yml', () => {
  const seen = registrations();

  it('declares exactly the slash commands the code answers', () => {
    const code = seen.filter((r) => r.kind === 'command').map((r) => String(r.matcher));
    expect(manifest.features.slash_commands.map((c) => c.command).sort()).toEqual([...new Set(code)].sort());
  });

  it('declares exactly the shortcuts the code answers', () => {
    const code = seen.filter((r) => r.kind === 'shortcut').map((r) => field(r.matcher, 'callback_id'));
    expect(manifest.features.shortcuts.map((s) => s.callback_id).sort()).toEqual([...new Set(code)].sort());
    // A global shortcut answers on `type: 'shortcut'`, a message shortcut on `message_action`.
    for (const shortcut of manifest.features.shortcuts) {
      const registered = seen.find(
        (r) => r.kind === 'shortcut' && field(r.matcher, 'callback_id') === shortcut.callback_id,
      );
      expect(field(registered?.matcher, 'type')).toBe(
        shortcut.type === 'global' ? 'shortcut' : 'message_action',
      );
    }
  });

  it('names every subcommand of the grammar in the usage hint', () => {
    const hint = manifest.features.slash_commands[0]?.usage_hint ?? '';
    for (const sub of SUBCOMMANDS) expect(hint, sub).toMatch(new RegExp(`(^|[ |])${sub}\\b`));
  });

  it('lists every shortcut in docs/using.md', () => {
    for (const shortcut of manifest.features.shortcuts) expect(usingPage).toContain(`| ${shortcut.name} |`);
  });

  it('subscribes to exactly the events the code listens to', () => {
    const code = new Set(seen.filter((r) => r.kind === 'event').map((r) => String(r.matcher)));
    const declared = manifest.settings.event_subscriptions.bot_events;
    // `function_executed` reaches the `app.function` listeners.
    if (seen.some((r) => r.kind === 'function')) code.add('function_executed');
    for (const event of declared) {
      const name = MESSAGE_SUBSCRIPTIONS.includes(event) ? 'message' : event;
      expect(code.has(name), `${event} has no listener`).toBe(true);
    }
    for (const event of code) {
      const covered =
        event === 'message'
          ? declared.some((e) => MESSAGE_SUBSCRIPTIONS.includes(e))
          : declared.includes(event);
      expect(covered, `${event} is not subscribed in the manifest`).toBe(true);
    }
  });

  it('subscribes to the channel lifecycle events that pause and resume feeds and digests', () => {
    const declared = manifest.settings.event_subscriptions.bot_events;
    for (const event of [
      'channel_archive',
      'channel_deleted',
      'channel_unarchive',
      'group_archive',
      'group_deleted',
      'group_unarchive',
      'member_left_channel',
      'member_joined_channel',
    ]) {
      expect(declared, event).toContain(event);
    }
    expect(manifest.oauth_config.scopes.bot).toEqual(
      expect.arrayContaining(['channels:read', 'groups:read']),
    );
  });

  it('declares exactly the Workflow Builder steps the code runs, with their parameters', () => {
    const code = seen.filter((r) => r.kind === 'function').map((r) => String(r.matcher));
    const declared = manifest.functions ?? {};
    expect(Object.keys(declared).sort()).toEqual([...new Set(code)].sort());
    expect(Object.keys(WORKFLOW_STEPS).sort()).toEqual([...new Set(code)].sort());
    for (const [id, step] of Object.entries(WORKFLOW_STEPS)) {
      const fn = declared[id]!;
      expect(fn.title, id).toBe(step.title);
      for (const [params, wanted] of [
        [fn.input_parameters, step.inputs],
        [fn.output_parameters, step.outputs],
      ] as const) {
        expect(Object.keys(params), id).toEqual(wanted.map((p) => p.name));
        for (const p of wanted) {
          const got = params[p.name]!;
          expect(got.is_required === true, `${id}.${p.name}`).toBe(p.required);
          if ('array' in p && p.array) expect(got).toMatchObject({ type: 'array', items: { type: p.type } });
          else expect(got.type, `${id}.${p.name}`).toBe(p.type);
        }
      }
    }
    // Custom steps need these: function_executed delivered, remote runtime, org-ready app.
    expect(manifest.settings.event_subscriptions.bot_events).toContain('function_executed');
    expect(manifest.settings.function_runtime).toBe('remote');
    expect(manifest.settings.org_deploy_enabled).toBe(true);
    expect(usingPage).toContain('Custom steps need a paid Slack plan');
  });

  it('has interactivity and options load urls when the code has actions, views or options', () => {
    expect(seen.some((r) => r.kind === 'action' || r.kind === 'view')).toBe(true);
    expect(manifest.settings.interactivity.is_enabled).toBe(true);
    expect(manifest.settings.interactivity.request_url).toMatch(/\/slack\/events$/);
    expect(seen.some((r) => r.kind === 'options')).toBe(true);
    expect(manifest.settings.interactivity.message_menu_options_url).toMatch(/\/slack\/events$/);
    expect(manifest.settings.event_subscriptions.request_url).toMatch(/\/slack\/events$/);
    for (const command of manifest.features.slash_commands) expect(command.url).toMatch(/\/slack\/events$/);
  });

  it('enables App Home, unfurl domains and the OAuth redirect the installer serves', () => {
    expect(manifest.features.app_home.home_tab_enabled).toBe(true);
    expect(manifest.features.unfurl_domains?.length).toBeGreaterThan(0);
    expect(manifest.oauth_config.redirect_urls.every((u) => u.endsWith(REDIRECT_PATH))).toBe(true);
    expect(installPage).toContain(INSTALL_PATH);
  });

  it('asks for exactly the bot scopes the code uses, each justified in docs/install.md', () => {
    expect([...manifest.oauth_config.scopes.bot].sort()).toEqual([...BOT_SCOPES].sort());
    for (const scope of BOT_SCOPES) expect(installPage, scope).toContain(`| \`${scope}\` |`);
  });

  it('keeps the configuration table in step (sanity: multi-workspace variables documented)', () => {
    for (const name of ['SLACK_CLIENT_ID', 'ENCRYPTION_KEY', 'ADMIN_USER_IDS'] as const) {
      expect(CONFIG_DOCS[name]).toBeTruthy();
    }
  });
});
