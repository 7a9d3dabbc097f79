/**
 * The layer rules of `npm run lint` (.dependency-cruiser.cjs), run on small trees written to a
 * temporary folder: an import against DESIGN.md's layers, or a cycle (a type-only one too),
 * fails the check; a tree that keeps the rules passes it.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '..');
const depcruise = join(root, 'node_modules', '.bin', 'depcruise');
const config = join(root, '.dependency-cruiser.cjs');
const made: string[] = [];

afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** Writes the files (path → source) under a fresh folder and runs the checker on its src/. */
function check(files: Record<string, string>): Promise<{ code: number; output: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'layers-'));
  made.push(dir);
  for (const [path, source] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), source);
  }
  return new Promise((done) => {
    execFile(
      depcruise,
      ['src', '--config', config, '--output-type', 'err'],
      { cwd: dir },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
        done({ code, output: `${stdout}${stderr}` });
      },
    );
  });
}

describe('the layer rules', () => {
  it('pass a tree whose imports go downward', async () => {
    const result = await check({
      'src/collab/schemas.ts': 'export interface Post { id: string }\n',
      'src/store/cards.ts':
        "import type { Post } from '../collab/schemas.ts';\nexport const card = (p: Post) => p.id;\n",
      'src/render/postCard.ts':
        "import type { Post } from '../collab/schemas.ts';\nexport const view = (p: Post) => p.id;\n",
      'src/jobs/createPost.ts':
        "import { card } from '../store/cards.ts';\nimport { view } from '../render/postCard.ts';\nexport const run = () => [card, view];\n",
    });
    expect(result.output).toContain('no dependency violations');
    expect(result.code).toBe(0);
  }, 60_000);

  it('fail a builder that imports jobs/ or store/', async () => {
    const result = await check({
      'src/store/audit.ts': 'export interface AuditEntry { at: string }\n',
      'src/jobs/digest.ts': 'export interface DigestSummary { scanned: number }\n',
      'src/render/home.ts':
        "import type { AuditEntry } from '../store/audit.ts';\nimport type { DigestSummary } from '../jobs/digest.ts';\nexport type Home = [AuditEntry, DigestSummary];\n",
    });
    expect(result.code).not.toBe(0);
    expect(result.output).toContain('render-is-pure: src/render/home.ts → src/store/audit.ts');
    expect(result.output).toContain('render-is-pure: src/render/home.ts → src/jobs/digest.ts');
  }, 60_000);

  it('fail a type-only cycle, such as a listener importing its deps from the app that registers it', async () => {
    const result = await check({
      'src/slack/app.ts':
        "import { register } from './listeners/index.ts';\nexport interface ListenerDeps { command: string }\nexport const app = register;\n",
      'src/slack/listeners/index.ts':
        "import type { ListenerDeps } from '../app.ts';\nexport const register = (deps: ListenerDeps) => deps.command;\n",
    });
    expect(result.code).not.toBe(0);
    expect(result.output).toContain('no-cycles');
    expect(result.output).toContain('listeners-not-from-app');
  }, 60_000);

  it('fail store/ reading config.ts, collab/ importing the project, and main.ts reaching the sandbox', async () => {
    const result = await check({
      'src/config.ts': 'export interface Config { redisUrl: string }\n',
      'src/store/redis.ts': "import type { Config } from '../config.ts';\nexport type R = Config;\n",
      'src/collab/client.ts': "import type { R } from '../store/redis.ts';\nexport type C = R;\n",
      'src/sandbox/mode.ts': 'export const sandbox = true;\n',
      'src/runtime.ts': "import { sandbox } from './sandbox/mode.ts';\nexport const start = () => sandbox;\n",
      'src/main.ts': "import { start } from './runtime.ts';\nstart();\n",
    });
    expect(result.code).not.toBe(0);
    expect(result.output).toContain('store-imports-only-collab: src/store/redis.ts → src/config.ts');
    expect(result.output).toContain('collab-imports-nothing-else: src/collab/client.ts → src/store/redis.ts');
    expect(result.output).toContain('sandbox-has-its-own-entry: src/runtime.ts → src/sandbox/mode.ts');
    expect(result.output).toContain('main-never-reaches-the-sandbox: src/main.ts → src/sandbox/mode.ts');
  }, 60_000);

  it('pass operations/ claiming its key through store/, and a listener telling through engine/tellNow.ts', async () => {
    const result = await check({
      'src/store/keys.ts': "export const claim = (id: string) => 'claim:' + id;\n",
      'src/operations/queue.ts':
        "import { claim } from '../store/keys.ts';\nexport const enqueue = (id: string) => claim(id);\n",
      'src/engine/delivery.ts': 'export const tellThrough = (text: string) => text;\n',
      'src/engine/tellNow.ts':
        "import { tellThrough } from './delivery.ts';\nexport const tellNow = tellThrough;\n",
      'src/slack/listeners/comment.ts':
        "import { tellNow } from '../../engine/tellNow.ts';\nimport { enqueue } from '../../operations/queue.ts';\nexport const run = () => [tellNow, enqueue];\n",
      'src/engine/index.ts': "export { tellThrough } from './delivery.ts';\n",
      'src/runtime/workers.ts':
        "import { tellThrough } from '../engine/index.ts';\nexport const start = tellThrough;\n",
    });
    expect(result.output).toContain('no dependency violations');
    expect(result.code).toBe(0);
  }, 60_000);

  it('fail operations/ importing jobs/, store/ importing operations/, and a listener importing jobs/', async () => {
    const result = await check({
      'src/jobs/shards.ts': 'export const shardOf = (team: string) => team.length;\n',
      'src/operations/queue.ts':
        "import { shardOf } from '../jobs/shards.ts';\nexport const enqueue = (team: string) => shardOf(team);\n",
      'src/store/claims.ts':
        "import { enqueue } from '../operations/queue.ts';\nexport const claim = enqueue;\n",
      'src/jobs/cleanup.ts': 'export const removeTeamJobs = (team: string) => team;\n',
      'src/slack/listeners/workspace.ts':
        "import { removeTeamJobs } from '../../jobs/cleanup.ts';\nexport const uninstall = removeTeamJobs;\n",
    });
    expect(result.code).not.toBe(0);
    expect(result.output).toContain('operations-above-store: src/operations/queue.ts → src/jobs/shards.ts');
    expect(result.output).toContain(
      'store-imports-only-collab: src/store/claims.ts → src/operations/queue.ts',
    );
    expect(result.output).toContain(
      'slack-tells-through-the-engine: src/slack/listeners/workspace.ts → src/jobs/cleanup.ts',
    );
  }, 60_000);

  it('fail a stage of the start imported by anything but the runtime', async () => {
    const result = await check({
      'src/runtime/core.ts': 'export const buildCore = () => ({ stop: async () => {} });\n',
      'src/runtime.ts': "import { buildCore } from './runtime/core.ts';\nexport const start = buildCore;\n",
      'src/ops/health.ts':
        "import { buildCore } from '../runtime/core.ts';\nexport const core = buildCore;\n",
    });
    expect(result.code).not.toBe(0);
    expect(result.output).toContain(
      'stages-only-through-the-runtime: src/ops/health.ts → src/runtime/core.ts',
    );
    expect(result.output).not.toContain('src/runtime.ts → src/runtime/core.ts');
  }, 60_000);

  it('fail the engine importing a product feature, and jobs/ or a listener going past its front door', async () => {
    const result = await check({
      'src/jobs/cards.ts': 'export const updateCards = () => 1;\n',
      'src/engine/steps.ts':
        "import { updateCards } from '../jobs/cards.ts';\nexport const once = updateCards;\n",
      'src/engine/delivery.ts': 'export const tellThrough = (text: string) => text;\n',
      'src/engine/tellNow.ts':
        "import { tellThrough } from './delivery.ts';\nexport const tellNow = tellThrough;\n",
      'src/slack/listeners/comment.ts':
        "import { once } from '../../engine/steps.ts';\nimport { tellThrough } from '../../engine/delivery.ts';\nimport { tellNow } from '../../engine/tellNow.ts';\nexport const run = () => [once, tellThrough, tellNow];\n",
      'src/engine/index.ts': "export { once } from './steps.ts';\n",
      'src/jobs/feeds.ts':
        "import { once } from '../engine/index.ts';\nimport { tellNow } from '../engine/tellNow.ts';\nexport const poll = () => [once, tellNow];\n",
    });
    expect(result.code).not.toBe(0);
    expect(result.output).toContain('engine-knows-no-product: src/engine/steps.ts → src/jobs/cards.ts');
    expect(result.output).toContain(
      'slack-tells-through-the-engine: src/slack/listeners/comment.ts → src/engine/steps.ts',
    );
    expect(result.output).toContain(
      'slack-tells-through-the-engine: src/slack/listeners/comment.ts → src/engine/delivery.ts',
    );
    expect(result.output).not.toContain('src/slack/listeners/comment.ts → src/engine/tellNow.ts');
    expect(result.output).toContain(
      'engine-through-its-front-door: src/jobs/feeds.ts → src/engine/tellNow.ts',
    );
    expect(result.output).not.toContain('src/jobs/feeds.ts → src/engine/index.ts');
  }, 60_000);

  it('fail a layer below or beside the engine importing it, even through its front door', async () => {
    const result = await check({
      'src/engine/index.ts': 'export const tell = (text: string) => text;\n',
      'src/store/cards.ts': "import { tell } from '../engine/index.ts';\nexport const card = tell;\n",
      'src/ops/metrics.ts': "import { tell } from '../engine/index.ts';\nexport const count = tell;\n",
      'src/workspaces/workspaces.ts':
        "import { tell } from '../engine/index.ts';\nexport const workspace = tell;\n",
    });
    expect(result.code).not.toBe(0);
    for (const file of ['src/store/cards.ts', 'src/ops/metrics.ts', 'src/workspaces/workspaces.ts']) {
      expect(result.output).toContain(`engine-used-from-above: ${file} → src/engine/index.ts`);
    }
  }, 60_000);

  it('fail a helper imported from jobs/processors/ by anything but its index', async () => {
    const result = await check({
      'src/jobs/processors/notifications.ts':
        'export const notifyChange = () => 1;\nexport const setNotify = () => notifyChange();\n',
      'src/jobs/processors/index.ts':
        "import { setNotify } from './notifications.ts';\nexport const processors = { setNotify };\n",
      'src/jobs/feeds.ts':
        "import { notifyChange } from './processors/notifications.ts';\nexport const poll = notifyChange;\n",
    });
    expect(result.code).not.toBe(0);
    expect(result.output).toContain(
      'processors-only-through-index: src/jobs/feeds.ts → src/jobs/processors/notifications.ts',
    );
  }, 60_000);
});
