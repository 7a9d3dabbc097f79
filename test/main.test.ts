/**
 * The entry point's contract with whoever starts it: an incomplete real configuration names
 * every missing variable and exits 1; an unknown role exits 1. (Sandbox mode, when nothing is
 * configured, is covered in test/sandbox/start.test.ts.)
 */
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';

function run(args: string[], env: Record<string, string>): Promise<{ code: number | null; stderr: string }> {
  const clean: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (!/^(SLACK_|COLLAB_|QUEUE_PREFIX$|PORT$|ROLE$)/.test(name)) clean[name] = value;
  }
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts', ...args], {
    env: { ...clean, ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  return new Promise((resolve) => child.once('exit', (code) => resolve({ code, stderr })));
}

describe('starting the bot', () => {
  it('names every missing variable of a real configuration and exits 1', async () => {
    const { code, stderr } = await run([], {
      SLACK_BOT_TOKEN: 'xoxb-test-main',
      COLLAB_API_URL: 'https://collab.example.com',
    });
    expect(code).toBe(1);
    expect(stderr).toContain('SLACK_SIGNING_SECRET');
    expect(stderr).toContain('COLLAB_API_KEY');
    expect(stderr).not.toContain('xoxb-test-main');
  });

  it('refuses an unknown role', async () => {
    const { code, stderr } = await run(['--role=both'], {});
    expect(code).toBe(1);
    expect(stderr).toMatch(/Unknown role "both"/);
  });
});
