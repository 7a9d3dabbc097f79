/** Starting the bot (or the baseline) as a child process, the way it runs in production. */
import { type ChildProcess, fork } from 'node:child_process';
import { createServer } from 'node:net';

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** Forks a TypeScript entry with tsx; resolves once `/slack/events` answers or the child says ready. */
export async function startChild(entry: string, args: string[], env: Record<string, string>, port: number) {
  const child = fork(entry, args, {
    env: { ...process.env, ...env },
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${entry} exited with ${child.exitCode}`);
    const up = await fetch(`http://127.0.0.1:${port}/slack/events`, { method: 'POST', body: '' })
      .then(() => true)
      .catch(() => false);
    if (up) return child;
    if (Date.now() > deadline) throw new Error(`${entry} did not start`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

export async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  await new Promise<void>((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
    setTimeout(() => child.kill('SIGKILL'), 10_000).unref();
  });
}

/** Resident set size of a process in MB, from /proc. */
export async function rssMb(pid: number | undefined): Promise<number | undefined> {
  if (pid === undefined) return undefined;
  const { readFile } = await import('node:fs/promises');
  const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => '');
  const kb = status.match(/VmRSS:\s+(\d+)/)?.[1];
  return kb ? Number(kb) / 1024 : undefined;
}
