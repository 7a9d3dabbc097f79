/**
 * The entry points' contract with whoever starts them: an incomplete real configuration names
 * every missing variable and exits 1; an unknown role exits 1; under NODE_ENV=production the
 * sandbox never starts, whatever is set, and the production entry does not even import it.
 * (Sandbox mode, when nothing is configured, is covered in test/start.test.ts.)
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '..');

function run(
  entry: string,
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const clean: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (!/^(SLACK_|COLLAB_|QUEUE_PREFIX$|PORT$|ROLE$|SANDBOX$|NODE_ENV$)/.test(name)) clean[name] = value;
  }
  const child = spawn(process.execPath, ['--import', 'tsx', entry, ...args], {
    cwd: root,
    env: { ...clean, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString('utf8');
  });
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  return new Promise((done) => child.once('close', (code) => done({ code, stdout, stderr })));
}

describe('starting the bot', () => {
  it('names every missing variable of a real configuration and exits 1', async () => {
    const { code, stderr } = await run('src/main.ts', [], {
      SLACK_BOT_TOKEN: 'xoxb-test-main',
      COLLAB_API_URL: 'https://collab.example.com',
    });
    expect(code).toBe(1);
    expect(stderr).toContain('SLACK_SIGNING_SECRET');
    expect(stderr).toContain('COLLAB_API_KEY');
    expect(stderr).not.toContain('xoxb-test-main');
  });

  it('refuses an unknown role', async () => {
    const { code, stderr } = await run('src/main.ts', ['--role=both'], {});
    expect(code).toBe(1);
    expect(stderr).toMatch(/Unknown role "both"/);
  });

  it('npm start with a partial configuration (no SANDBOX) names what is missing instead of emulating it', async () => {
    const { code, stdout, stderr } = await run('src/start.ts', [], {
      SLACK_BOT_TOKEN: 'xoxb-test-main',
      SLACK_SIGNING_SECRET: 'test-signing',
    });
    expect(code).toBe(1);
    expect(stderr).toContain('COLLAB_API_URL');
    expect(stderr).toContain('COLLAB_API_KEY');
    expect(`${stdout}${stderr}`.toLowerCase()).not.toContain('sandbox');
  });

  it('npm start with SANDBOX=collab and Slack half configured names what Slack still needs', async () => {
    const { code, stderr } = await run('src/start.ts', [], { SANDBOX: 'collab', SLACK_SIGNING_SECRET: 's' });
    expect(code).toBe(1);
    expect(stderr).toContain('SLACK_BOT_TOKEN');
  });

  describe('under NODE_ENV=production the sandbox never starts', () => {
    const cases: Array<[string, string, Record<string, string>, string[]]> = [
      [
        'the production entry, collaboration API forgotten',
        'src/main.ts',
        { SLACK_BOT_TOKEN: 'xoxb-test-main', SLACK_SIGNING_SECRET: 'test-signing' },
        ['COLLAB_API_URL', 'COLLAB_API_KEY'],
      ],
      [
        'the production entry, bot token forgotten',
        'src/main.ts',
        { SLACK_SIGNING_SECRET: 'test-signing', COLLAB_API_URL: 'https://c.example', COLLAB_API_KEY: 'k' },
        ['SLACK_BOT_TOKEN'],
      ],
      [
        'npm start with nothing configured',
        'src/start.ts',
        {},
        ['SLACK_BOT_TOKEN', 'SLACK_SIGNING_SECRET', 'COLLAB_API_URL', 'COLLAB_API_KEY'],
      ],
      [
        'npm start asking for SANDBOX=all',
        'src/start.ts',
        { SANDBOX: 'all', SLACK_BOT_TOKEN: 'xoxb-test-main', SLACK_SIGNING_SECRET: 'test-signing' },
        ['COLLAB_API_URL', 'COLLAB_API_KEY'],
      ],
      [
        'the production entry asking for SANDBOX=collab',
        'src/main.ts',
        { SANDBOX: 'collab' },
        ['SLACK_BOT_TOKEN'],
      ],
    ];
    for (const [name, entry, env, missing] of cases) {
      it(`${name}: exits 1 naming ${missing.join(', ')}, never says "sandbox"`, async () => {
        const { code, stdout, stderr } = await run(entry, [], { NODE_ENV: 'production', ...env });
        expect(code).toBe(1);
        for (const variable of missing) expect(stderr).toContain(variable);
        expect(`${stdout}${stderr}`.toLowerCase()).not.toContain('sandbox');
      });
    }
  });
});

/** Every module src/main.ts reaches through static and dynamic imports of relative paths. */
function importGraph(entry: string): string[] {
  const seen = new Set<string>();
  const pending = [entry];
  while (pending.length > 0) {
    const file = pending.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    const text = readFileSync(file, 'utf8');
    const specifiers = [
      ...text.matchAll(/(?:import|export)\s[^'";]*?from\s*['"]([^'"]+)['"]/g),
      ...text.matchAll(/import\s*\(\s*['"]([^'"]+)['"]\s*\)/g),
      ...text.matchAll(/^\s*import\s+['"]([^'"]+)['"]/gm),
    ].map((m) => m[1]!);
    for (const specifier of specifiers) {
      if (!specifier.startsWith('.')) continue;
      const target = resolve(dirname(file), specifier);
      if (!existsSync(target)) throw new Error(`${relative(root, file)} imports missing ${specifier}`);
      pending.push(target);
    }
  }
  return [...seen].map((file) => relative(root, file));
}

describe('the production entry', () => {
  it('does not import the sandbox (statically or dynamically)', () => {
    const graph = importGraph(join(root, 'src/main.ts'));
    expect(graph).toContain('src/runtime.ts');
    expect(graph).toContain('src/config.ts');
    expect(graph.filter((file) => file.startsWith('src/sandbox/'))).toEqual([]);
  });

  it('npm start reaches the sandbox only through its own entry', () => {
    const launcher = readFileSync(join(root, 'src/start.ts'), 'utf8');
    expect(launcher).toContain("import('./sandbox/main.ts')");
    expect(launcher).toContain("import('./main.ts')");
  });
});
