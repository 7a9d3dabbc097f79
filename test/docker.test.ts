/**
 * The Dockerfile's steps, run on the host (Docker cannot run here): a scratch copy of
 * package.json, the lock file, the tsconfigs, scripts/ (the build) and src/; the build stage's
 * `npm ci` and `npm run build`; the runtime's `npm ci --omit=dev --ignore-scripts`; start the web
 * role as the image's ENTRYPOINT does (it reads the Redis scripts, .lua files the build copies
 * beside the modules); then run the image's HEALTHCHECK command against it. Skipped, with the
 * reason printed, only when npm cannot reach the registry.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { connectRedis, deleteKeys, whenReady } from '../src/store/redis.ts';
import { REDIS_URL } from './support/harness.ts';

const run = promisify(execFile);
const root = new URL('..', import.meta.url).pathname;
const dockerfile = readFileSync(join(root, 'Dockerfile'), 'utf8');
const scratch = mkdtempSync(join(tmpdir(), 'collab-slack-image-'));
let child: ChildProcess | undefined;
const prefix = `test-image-${randomBytes(6).toString('hex')}`;

afterAll(async () => {
  child?.kill('SIGKILL');
  rmSync(scratch, { recursive: true, force: true });
  // A producer connection fails fast until it is ready: wait, or the clean-up finds nothing.
  const redis = connectRedis(REDIS_URL, 'producer');
  await whenReady(redis);
  await deleteKeys(redis, `${prefix}:*`);
  redis.disconnect();
});

/** The JSON array of an exec-form instruction (`ENTRYPOINT [...]`, `HEALTHCHECK … CMD [...]`). */
function execForm(instruction: RegExp): string[] {
  const text = dockerfile.replace(/\\\n\s*/g, ' ');
  const match = instruction.exec(text);
  if (!match?.[1]) throw new Error(`Dockerfile has no ${instruction}`);
  return JSON.parse(match[1]) as string[];
}

/** The .lua files under `dir`, as paths relative to it, sorted. */
function luaFiles(dir: string): string[] {
  return (readdirSync(dir, { recursive: true }) as string[]).filter((path) => path.endsWith('.lua')).sort();
}

const OFFLINE = /ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ECONNRESET|ETIMEDOUT|ENETUNREACH|network/i;

describe('the Docker image (its steps on the host)', () => {
  it('is multi-stage, on Node LTS, runs as a non-root user, installs production dependencies only', () => {
    expect(dockerfile.match(/^FROM /gm)?.length).toBeGreaterThanOrEqual(2);
    expect(dockerfile).toMatch(/^FROM node:(22|24)[-\w.]* AS build/m);
    expect(dockerfile).toMatch(/^COPY scripts \.\/scripts$/m);
    expect(dockerfile).toMatch(/^RUN npm run build$/m);
    expect(dockerfile).toMatch(/^FROM node:(22|24)[-\w.]* AS deps/m);
    expect(dockerfile).toMatch(/^RUN npm ci --omit=dev --ignore-scripts/m);
    expect(dockerfile).toMatch(/^USER node$/m);
    expect(dockerfile).toMatch(/^HEALTHCHECK /m);
  });

  it('installs with npm ci, starts the web role, and passes its own HEALTHCHECK', async (context) => {
    for (const file of ['package.json', 'package-lock.json', 'tsconfig.json', 'tsconfig.build.json']) {
      cpSync(join(root, file), join(scratch, file));
    }
    for (const dir of ['scripts', 'src']) cpSync(join(root, dir), join(scratch, dir), { recursive: true });
    const npm = (args: string[], env: NodeJS.ProcessEnv = process.env) =>
      run('npm', args, { cwd: scratch, env, maxBuffer: 16 * 1024 * 1024 });
    try {
      // The build stage, then the runtime stage's production-only install.
      await npm(['ci', '--ignore-scripts', '--no-audit', '--no-fund']);
      await npm(['run', 'build']);
      // The Redis scripts ship beside the compiled modules that read them at start.
      expect(luaFiles(join(scratch, 'dist')).length).toBeGreaterThan(0);
      expect(luaFiles(join(scratch, 'dist'))).toEqual(luaFiles(join(root, 'src')));
      rmSync(join(scratch, 'node_modules'), { recursive: true, force: true });
      for (const dir of ['scripts', 'src']) rmSync(join(scratch, dir), { recursive: true, force: true });
      await npm(['ci', '--omit=dev', '--ignore-scripts', '--no-audit', '--no-fund'], {
        ...process.env,
        NODE_ENV: 'production',
      });
    } catch (error) {
      const text = `${(error as { stderr?: string }).stderr ?? ''} ${String(error)}`;
      if (OFFLINE.test(text)) {
        process.stdout.write(`docker.test: skipped, npm cannot reach the registry: ${text.slice(0, 300)}\n`);
        context.skip();
      }
      throw error;
    }

    const entrypoint = execForm(/^ENTRYPOINT (\[.*\])$/m);
    expect(entrypoint.slice(0, 2)).toEqual(['node', 'dist/main.js']);
    child = spawn(process.execPath, [...entrypoint.slice(1), 'web'], {
      cwd: scratch,
      env: {
        PATH: process.env.PATH ?? '',
        NODE_ENV: 'production',
        SLACK_SIGNING_SECRET: 'test-signing-image',
        SLACK_BOT_TOKEN: 'xoxb-test-image',
        SLACK_BOT_USER_ID: 'U_BOT',
        COLLAB_API_URL: 'https://collab.example.com',
        COLLAB_API_KEY: 'test-key-image',
        REDIS_URL,
        // The tests' shared Redis keeps nothing on disk; a production start would refuse it.
        REDIS_ALLOW_VOLATILE: 'true',
        QUEUE_PREFIX: prefix,
        PORT: '0',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const port = await new Promise<number>((resolve, reject) => {
      createInterface({ input: child!.stdout! }).on('line', (line) => {
        try {
          const entry = JSON.parse(line) as { msg?: string; port?: number };
          if (entry.msg === 'collab-slack started' && entry.port) resolve(entry.port);
        } catch {
          // not a log line
        }
      });
      child!.once('exit', (code) => reject(new Error(`the web role exited (${code}): ${stderr}`)));
    });

    const healthcheck = execForm(/^HEALTHCHECK .*?CMD (\[.*\])$/m);
    expect(healthcheck[0]).toBe('node');
    const result = await run(process.execPath, healthcheck.slice(1), {
      cwd: scratch,
      env: { PATH: process.env.PATH ?? '', PORT: String(port) },
    }).then(
      () => 0,
      (error: { code?: number }) => error.code ?? 1,
    );
    expect(result).toBe(0);

    const exited = new Promise<number | null>((resolve) => child!.once('exit', resolve));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  }, 240_000);
});
