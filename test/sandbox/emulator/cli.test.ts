import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { describe, expect, it } from 'vitest';

describe('npm run emulator (src/sandbox/cli.ts)', () => {
  it('prints its URL and key on one line, serves, and stops cleanly on SIGTERM', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/sandbox/cli.ts'], {
      env: { ...process.env, PORT: '0' },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    try {
      const lines = createInterface({ input: child.stdout });
      const [line] = (await once(lines, 'line')) as [string];
      const match =
        /^Collaboration API emulator on (http:\/\/127\.0\.0\.1:\d+)\/v2 — API key: (emu_local_key_\w+)/.exec(
          line,
        );
      expect(match).not.toBeNull();
      const [, url, key] = match ?? [];
      const answer = await fetch(`${url}/v2/channels`, { headers: { authorization: `Bearer ${key}` } });
      expect(answer.status).toBe(200);
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      const [code] = await exited;
      expect(code).toBe(0);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  });
});
