/**
 * Following .env.example works. Compose passes every `NAME=` line of the env file to the
 * container, an empty one as `""`; the image runs the built entry (dist/main.js). So: build the
 * entry, and start it as compose.yaml's web and worker services would — the template's lines as
 * given, the compose service's environment over them, the image's NODE_ENV — in
 * multi-workspace mode (the lines that mode needs filled in, as the template says), and again
 * with the optional commented lines uncommented, empty. Each starts; the template untouched
 * names what is truly missing, never an "Invalid URL" for an empty value.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { connectRedis, deleteKeys, whenReady } from '../src/store/redis.ts';
import { REDIS_URL } from './support/harness.ts';

const root = new URL('..', import.meta.url).pathname;
const scratch = join(root, 'test-output', `env-example-${randomBytes(6).toString('hex')}`);
const prefix = `test-env-example-${randomBytes(6).toString('hex')}`;
const children = new Set<ChildProcess>();

type Env = Record<string, string>;

/** The env file's variables as Compose passes them: `NAME=value` lines, comments skipped. */
function envFile(text: string): Env {
  const env: Env = {};
  for (const line of text.split('\n')) {
    const match = /^([A-Z_][A-Z0-9_]*)=(.*)$/.exec(line.trim());
    if (match) env[match[1]!] = match[2]!;
  }
  return env;
}

const template = readFileSync(join(root, '.env.example'), 'utf8');
/** The template with its commented `# NAME=` lines uncommented, still empty. */
const uncommented = template.replace(/^#\s*([A-Z_][A-Z0-9_]*=)/gm, '$1');

/** What an operator fills in for multi-workspace mode (the template says which lines). */
const multiWorkspace: Env = {
  SLACK_SIGNING_SECRET: `test-signing-${randomBytes(8).toString('hex')}`,
  SLACK_CLIENT_ID: '1234.5678',
  SLACK_CLIENT_SECRET: `test-client-${randomBytes(8).toString('hex')}`,
  SLACK_STATE_SECRET: `test-state-${randomBytes(16).toString('hex')}`,
  ENCRYPTION_KEY: randomBytes(32).toString('base64'),
};

interface ComposeService {
  entrypoint: string[];
  environment: Env;
  env_file: string;
}
const compose = parse(readFileSync(join(root, 'compose.yaml'), 'utf8'), { merge: true }) as {
  services: Record<string, ComposeService>;
};
/** The image's own environment (its `ENV` line). */
const imageEnv = envFile(
  (/^ENV (.*)$/m.exec(readFileSync(join(root, 'Dockerfile'), 'utf8'))?.[1] ?? '').replace(/ /g, '\n'),
);

beforeAll(async () => {
  mkdirSync(scratch, { recursive: true });
  // The image's build stage: `npm run build` (scripts/build.mjs) compiles src/ to dist/ with the
  // Redis scripts beside it (here into a scratch folder inside the project, so dist/main.js finds
  // node_modules as in the image).
  await promisify(execFile)(process.execPath, [join(root, 'scripts', 'build.mjs'), join(scratch, 'dist')], {
    cwd: root,
  });
}, 240_000);

afterAll(async () => {
  for (const child of children) child.kill('SIGKILL');
  rmSync(scratch, { recursive: true, force: true });
  const redis = connectRedis(REDIS_URL, 'producer');
  await whenReady(redis);
  await deleteKeys(redis, `${prefix}:*`);
  redis.disconnect();
});

/**
 * Runs a compose service's entrypoint on the built entry with the env file's lines under the
 * service's environment. Resolves when it logs that it started (then stops it with SIGTERM), or
 * when it exits first.
 */
function start(service: ComposeService, fileEnv: Env) {
  const [node, ...args] = service.entrypoint;
  expect(node).toBe('node');
  const child = spawn(process.execPath, args, {
    cwd: scratch,
    env: {
      PATH: process.env.PATH ?? '',
      ...imageEnv,
      ...fileEnv,
      ...service.environment,
      // The tests' Redis, a free port, keys of this test only; that Redis keeps nothing on disk.
      REDIS_URL,
      PORT: '0',
      QUEUE_PREFIX: prefix,
      REDIS_ALLOW_VOLATILE: 'true',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.add(child);
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const started = new Promise<boolean>((resolve) => {
    createInterface({ input: child.stdout! }).on('line', (line) => {
      if (line.includes('"msg":"collab-slack started"')) resolve(true);
    });
    void exited.then(() => resolve(false));
  });
  return {
    async outcome(): Promise<{ started: boolean; code: number | null; stderr: string }> {
      const up = await started;
      if (up) child.kill('SIGTERM');
      const code = await exited;
      children.delete(child);
      return { started: up, code, stderr };
    },
  };
}

describe('.env.example followed for docker compose', () => {
  it('is the env file compose.yaml gives both roles', () => {
    for (const name of ['web', 'worker']) expect(compose.services[name]?.env_file).toBe('.env');
    expect(imageEnv.NODE_ENV).toBe('production');
    // The lines this test fills in for multi-workspace mode are the template's own.
    for (const name of Object.keys(multiWorkspace))
      expect(template).toMatch(new RegExp(`^(# )?${name}=$`, 'm'));
  });

  const variants: Array<[string, string]> = [
    ['its lines as given', template],
    ['its optional lines uncommented, empty', uncommented],
  ];
  for (const [variant, text] of variants) {
    for (const role of ['web', 'worker']) {
      it(`starts the ${role} service in multi-workspace mode, ${variant}`, async () => {
        const fileEnv = { ...envFile(text), ...multiWorkspace };
        // The lines left empty are what the test is about: they must be there, and empty.
        expect(fileEnv.COLLAB_API_URL).toBe('');
        if (text === uncommented) expect(fileEnv.OTEL_EXPORTER_OTLP_ENDPOINT).toBe('');
        const { started, code, stderr } = await start(compose.services[role]!, fileEnv).outcome();
        expect(stderr).not.toMatch(/Invalid URL/i);
        expect({ started, code, stderr }).toEqual({ started: true, code: 0, stderr: expect.any(String) });
      }, 60_000);
    }
  }

  it('left unfilled, names every variable still missing, and no empty one as invalid', async () => {
    const { started, code, stderr } = await start(compose.services.web!, envFile(uncommented)).outcome();
    expect(started).toBe(false);
    expect(code).toBe(1);
    for (const name of ['SLACK_SIGNING_SECRET', 'SLACK_BOT_TOKEN', 'COLLAB_API_URL', 'COLLAB_API_KEY'])
      expect(stderr).toContain(`${name} is missing`);
    expect(stderr).not.toMatch(/Invalid|invalid/);
  }, 60_000);
});
