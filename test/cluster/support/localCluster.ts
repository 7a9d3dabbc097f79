/**
 * A Redis Cluster of the test's own: 3 masters and 3 replicas, Debian's `redis-server` on free
 * loopback ports (each with its own cluster bus port and temp dir), AOF on with `appendfsync
 * always` as production runs it, a short `cluster-node-timeout` so a killed master's replica takes
 * over within ~a second, and `redis-cli --cluster create … --cluster-replicas 1`. Readiness and
 * failover are waited for on what the nodes print ("Cluster state changed: ok", "Failover election
 * won"), never on time. `stop()` stops every process by its pid and removes the dirs.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { waitForOutput } from '../../../src/sandbox/childOutput.ts';
import { freePort } from '../../../src/sandbox/redis.ts';

export interface ClusterNodeProcess {
  port: number;
  /** `127.0.0.1:port` */
  address: string;
  /** whether the process runs */
  alive(): boolean;
  /** resolves on the first output matching `pattern` from now on (or already since `since`) */
  output(pattern: RegExp, timeoutMs?: number): Promise<void>;
  /** SIGKILL: a crash. Resolves when the process is gone. */
  kill(): Promise<void>;
}

export interface LocalCluster {
  nodes: ClusterNodeProcess[];
  /** `host:port,…` for REDIS_CLUSTER_NODES */
  seeds: string;
  /** a node's `redis://` URL (the app reads credentials and TLS from it; this cluster has none) */
  url: string;
  stop(): Promise<void>;
}

export interface LocalClusterOptions {
  masters?: number;
  replicasPerMaster?: number;
  /** cluster-node-timeout: how long a master may be silent before its replica is promoted */
  nodeTimeoutMs?: number;
}

const live = new Set<ChildProcess>();
let exitHook = false;

function track(child: ChildProcess): void {
  if (!exitHook) {
    exitHook = true;
    // However the run ends, no node outlives it.
    process.once('exit', () => {
      for (const proc of live) if (proc.exitCode === null && proc.signalCode === null) proc.kill('SIGKILL');
    });
  }
  live.add(child);
  child.once('exit', () => live.delete(child));
}

/**
 * A node on ports found free a moment before: the six nodes look for theirs at once, and a port
 * just released can be handed out again (to a sibling, or to another test's server) before its
 * node binds it. A node that finds its port taken starts again on others.
 */
async function startNode(nodeTimeoutMs: number): Promise<{ node: ClusterNodeProcess; dir: string }> {
  for (let attempt = 1; ; attempt++) {
    const dir = mkdtempSync(join(tmpdir(), 'collab-cluster-'));
    try {
      return { node: await startNodeIn(dir, nodeTimeoutMs), dir };
    } catch (error) {
      rmSync(dir, { recursive: true, force: true });
      if (attempt >= 5 || !/Address already in use/.test(String(error))) throw error;
    }
  }
}

async function startNodeIn(dir: string, nodeTimeoutMs: number): Promise<ClusterNodeProcess> {
  const port = await freePort();
  const busPort = await freePort();
  const child = spawn(
    'redis-server',
    [
      '--port',
      String(port),
      '--cluster-port',
      String(busPort),
      '--bind',
      '127.0.0.1',
      '--dir',
      dir,
      '--cluster-enabled',
      'yes',
      '--cluster-config-file',
      'nodes.conf',
      '--cluster-node-timeout',
      String(nodeTimeoutMs),
      // A replica is promoted however long it has been apart from its master.
      '--cluster-replica-validity-factor',
      '0',
      '--appendonly',
      'yes',
      '--appendfsync',
      'always',
      '--save',
      '',
      '--maxmemory-policy',
      'noeviction',
      '--daemonize',
      'no',
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  track(child);
  // Everything the node prints, so a wait can start before the line it waits for.
  let printed = '';
  const listeners = new Set<() => void>();
  const onData = (chunk: Buffer) => {
    printed += chunk.toString('utf8');
    for (const listener of listeners) listener();
  };
  child.stdout?.on('data', onData);
  child.stderr?.on('data', onData);
  await waitForOutput(child, /ready to accept connections/i, { what: 'redis-server', timeoutMs: 15_000 });
  const node: ClusterNodeProcess = {
    port,
    address: `127.0.0.1:${port}`,
    alive: () => child.exitCode === null && child.signalCode === null,
    output(pattern, timeoutMs = 30_000) {
      const from = printed.length;
      return new Promise((resolve, reject) => {
        const check = () => {
          if (!pattern.test(printed.slice(from))) return;
          cleanup();
          resolve();
        };
        const timer = setTimeout(() => {
          cleanup();
          reject(new Error(`${node.address} did not print ${pattern} within ${timeoutMs} ms`));
        }, timeoutMs);
        // A wait nobody needs any more (a master never prints a replica's line) keeps nothing alive.
        timer.unref();
        const cleanup = () => {
          clearTimeout(timer);
          listeners.delete(check);
        };
        listeners.add(check);
      });
    },
    kill: () =>
      new Promise<void>((resolve) => {
        if (!node.alive()) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGKILL');
      }),
  };
  return node;
}

function run(command: string, args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    track(child);
    let out = '';
    child.stdout?.on('data', (c: Buffer) => (out += c.toString('utf8')));
    child.stderr?.on('data', (c: Buffer) => (out += c.toString('utf8')));
    child.once('error', reject);
    child.once('exit', (code) =>
      code === 0 ? resolve(out) : reject(new Error(`${command} exited ${code}:\n${out}`)),
    );
  });
}

/** Resolves once `n` of the promises have; the others may never. */
function atLeast(n: number, promises: Promise<void>[]): Promise<void> {
  let done = 0;
  return new Promise((resolve) => {
    if (n <= 0) resolve();
    for (const promise of promises) {
      promise.then(
        () => {
          done += 1;
          if (done === n) resolve();
        },
        () => {},
      );
    }
  });
}

export async function startLocalCluster(options: LocalClusterOptions = {}): Promise<LocalCluster> {
  const masters = options.masters ?? 3;
  const count = masters * (1 + (options.replicasPerMaster ?? 1));
  const started = await Promise.all(
    Array.from({ length: count }, () => startNode(options.nodeTimeoutMs ?? 1000)),
  );
  const nodes = started.map((s) => s.node);
  const stop = async () => {
    await Promise.all(nodes.map((node) => node.kill()));
    for (const { dir } of started) rmSync(dir, { recursive: true, force: true });
  };
  try {
    // Listening before the cluster forms: every node says when its cluster state becomes ok, and
    // each replica when it holds its master's data (a replica still syncing acknowledges no WAIT).
    const ok = nodes.map((node) => node.output(/Cluster state changed: ok/, 60_000));
    const synced = atLeast(
      count - masters,
      nodes.map((node) => node.output(/MASTER <-> REPLICA sync: Finished with success/, 60_000)),
    );
    await run('redis-cli', [
      '--cluster',
      'create',
      ...nodes.map((node) => node.address),
      '--cluster-replicas',
      String(options.replicasPerMaster ?? 1),
      '--cluster-yes',
    ]);
    await Promise.all([...ok, synced]);
  } catch (error) {
    await stop();
    throw error;
  }
  return {
    nodes,
    seeds: nodes
      .slice(0, masters)
      .map((node) => node.address)
      .join(','),
    url: `redis://${nodes[0]!.address}`,
    stop,
  };
}
