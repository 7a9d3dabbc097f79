/**
 * Digest walk over many posts: time and memory of computing a digest (the streamed walk by
 * last_activity_at, top-N per group) against the bare pagination walk (`allPosts`) and a
 * materialising baseline (every post kept in an array), in one run, against the emulator.
 *
 *   npm run bench:digest -- [--posts 10000] [--rounds 5]
 *
 * The emulator runs in this process, seeded through its state API; both walks read the same
 * 200 pages of 50. Memory: heap and RSS are sampled every 5 ms during each walk; "growth" is the
 * peak over the value measured (after a GC when --expose-gc is on) just before the walk.
 * Prints its report (date, machine, commit, command); BENCHMARKS.md is updated by hand.
 */
import { parseArgs } from 'node:util';
import { createCollabClient } from '../src/collab/client.ts';
import type { Post } from '../src/collab/schemas.ts';
import { collectDigest } from '../src/jobs/digest.ts';
import { startEmulator } from '../src/sandbox/emulator/index.ts';
import { machineLine } from './lib/process.ts';
import { round, summarize } from './lib/stats.ts';

const { values } = parseArgs({
  options: {
    posts: { type: 'string', default: '10000' },
    rounds: { type: 'string', default: '5' },
  },
});
const postCount = Number(values.posts);
const rounds = Number(values.rounds);
const gc = (globalThis as { gc?: () => void }).gc;

interface Sample {
  ms: number;
  heapGrowthMb: number;
  rssGrowthMb: number;
  posts: number;
}

const mb = (bytes: number) => bytes / 2 ** 20;

async function measure(run: () => Promise<number>): Promise<Sample> {
  gc?.();
  const heap0 = process.memoryUsage().heapUsed;
  const rss0 = process.memoryUsage.rss();
  let heapPeak = heap0;
  let rssPeak = rss0;
  const timer = setInterval(() => {
    heapPeak = Math.max(heapPeak, process.memoryUsage().heapUsed);
    rssPeak = Math.max(rssPeak, process.memoryUsage.rss());
  }, 5);
  const started = performance.now();
  const posts = await run();
  const ms = performance.now() - started;
  clearInterval(timer);
  heapPeak = Math.max(heapPeak, process.memoryUsage().heapUsed);
  rssPeak = Math.max(rssPeak, process.memoryUsage.rss());
  return { ms, heapGrowthMb: mb(heapPeak - heap0), rssGrowthMb: mb(rssPeak - rss0), posts };
}

async function main() {
  const emulator = await startEmulator({ seed: true });
  const org = emulator.org();
  const channel = [...org.channels.values()][0]!;
  const author = org.authorOf([...org.members.values()][0]!);
  const start = Date.now() - 10 * 24 * 3600_000;
  for (let i = 0; i < postCount; i++) {
    org.createPost(
      author,
      { title: `Bench post ${i}`, content_markdown: `Content ${i} `.repeat(20), channel_id: channel.id },
      new Date(start + i * 60_000),
    );
  }
  const client = createCollabClient({ baseUrl: emulator.url, apiKey: emulator.apiKey });
  const query = { sort: 'last_activity_at', direction: 'desc', limit: 50 } as const;
  const window = { since: start - 1, until: Date.now() + 3600_000 };

  const variants: Record<string, () => Promise<number>> = {
    'bare walk (allPosts)': async () => {
      let n = 0;
      for await (const _post of client.allPosts(query)) n += 1;
      return n;
    },
    'digest (streamed, top 5 per group)': async () =>
      (await collectDigest(client.allPosts(query), window)).scanned,
    'materialised (all posts in an array)': async () => {
      const all: Post[] = [];
      for await (const post of client.allPosts(query)) all.push(post);
      return all.length;
    },
  };
  // One warm-up round, then the rounds interleaved so drift hits every variant alike.
  for (const run of Object.values(variants)) await run();
  const samples: Record<string, Sample[]> = Object.fromEntries(Object.keys(variants).map((k) => [k, []]));
  for (let r = 0; r < rounds; r++) {
    for (const [name, run] of Object.entries(variants)) samples[name]!.push(await measure(run));
  }
  await client.close();
  await emulator.close();

  const machine = await machineLine();
  const median = (xs: number[]) => summarize(xs).p50;
  const bare = median(samples['bare walk (allPosts)']!.map((s) => s.ms));
  const lines = [
    `### Digest walk — ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC`,
    '',
    `Machine: ${machine}. GC between walks: ${gc ? 'yes (--expose-gc)' : 'no'}.`,
    `Command: \`npm run bench:digest -- --posts ${postCount} --rounds ${rounds}\` (${postCount} posts in the window, pages of 50, emulator in-process)`,
    '',
    '| variant | posts read | median ms | min ms | max ms | × bare walk | peak heap growth MB (median) | peak RSS growth MB (median) | raw ms |',
    '|---|---|---|---|---|---|---|---|---|',
    ...Object.entries(samples).map(([name, list]) => {
      const ms = list.map((s) => s.ms);
      return `| ${name} | ${list[0]?.posts ?? 0} | ${round(median(ms), 1)} | ${round(Math.min(...ms), 1)} | ${round(Math.max(...ms), 1)} | ${round(median(ms) / bare, 2)} | ${round(median(list.map((s) => s.heapGrowthMb)), 1)} | ${round(median(list.map((s) => s.rssGrowthMb)), 1)} | ${ms.map((m) => round(m, 0)).join(', ')} |`;
    }),
  ];
  const report = lines.join('\n');
  console.log(report);
}

await main();
