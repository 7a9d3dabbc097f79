/**
 * The alert rules and the Grafana dashboard in monitoring/: every metric they use is one the bot
 * exports, every alert has its runbook entry in docs/runbook.md, and, when promtool is installed
 * (Debian's `prometheus` package), the rules pass `promtool check rules` and their unit tests
 * (`promtool test rules`), and the dashboard's queries parse as PromQL.
 */
import { execFile, execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Queue } from 'bullmq';
import { afterAll, describe, expect, it } from 'vitest';
import { stringify as toYaml, parse as yaml } from 'yaml';
import { QUEUE_NAME } from '../src/operations/queue.ts';
import { createMetrics } from '../src/ops/metrics.ts';
import { connectRedis, deleteKeys, whenReady } from '../src/store/redis.ts';
import { REDIS_URL } from './support/harness.ts';

const run = promisify(execFile);
const root = new URL('..', import.meta.url).pathname;
const read = (path: string) => readFileSync(join(root, path), 'utf8');
const RULES = 'monitoring/prometheus/collab-slack.rules.yaml';
const RULES_TESTS = 'monitoring/prometheus/collab-slack.rules.test.yaml';
const DASHBOARD = 'monitoring/grafana/collab-slack.json';

interface Rule {
  alert: string;
  expr: string;
  for?: string;
  labels: { severity: string };
  annotations: { summary: string; description: string; runbook: string };
}
const rules = (yaml(read(RULES)) as { groups: Array<{ rules: Rule[] }> }).groups.flatMap((g) => g.rules);
const dashboard = JSON.parse(read(DASHBOARD)) as {
  uid: string;
  panels: Array<{ title: string; targets: Array<{ expr: string }> }>;
};
const dashboardExprs = dashboard.panels.flatMap((p) => p.targets.map((t) => t.expr));

const promtool = (() => {
  try {
    execFileSync('promtool', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();
if (!promtool) {
  process.stdout.write(
    'monitoring.test: promtool checks skipped, promtool is not installed (apt-get install prometheus)\n',
  );
}

const scratch = mkdtempSync(join(tmpdir(), 'collab-slack-monitoring-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** collab_slack_* names in a PromQL expression, histogram series mapped to their metric. */
function metricsIn(expr: string): string[] {
  return [...expr.matchAll(/\bcollab_slack_[a-z0-9_]+/g)].map((m) =>
    m[0].replace(/_(bucket|count|sum)$/, ''),
  );
}

describe('alert rules and dashboard', () => {
  it('has the alerts operators need, each with a severity, words and a runbook entry in docs/runbook.md', () => {
    expect(rules.map((r) => r.alert)).toEqual([
      'CollabSlackQueueBackingUp',
      'CollabSlackJobsFailing',
      'CollabSlackRateLimited',
      'CollabSlackServiceErrors',
      'CollabSlackSchedulersStale',
      'CollabSlackRedisDown',
    ]);
    const runbook = read('docs/runbook.md').match(/^## .+$/gm) ?? [];
    for (const rule of rules) {
      expect(['warning', 'critical']).toContain(rule.labels.severity);
      expect(rule.annotations.summary.length).toBeGreaterThan(10);
      expect(rule.annotations.runbook).toBe(`docs/runbook.md#${rule.alert.toLowerCase()}`);
      expect(runbook).toContain(`## ${rule.alert}`);
    }
  });

  it('uses only metrics the bot exports', async () => {
    const metrics = createMetrics();
    const exported = new Set((await metrics.registry.getMetricsAsJSON()).map((m) => m.name));
    const used = [...rules.map((r) => r.expr), ...dashboardExprs].flatMap(metricsIn);
    expect(used.length).toBeGreaterThan(20);
    expect([...new Set(used)].filter((name) => !exported.has(name))).toEqual([]);
    // Every expression reads the bot's metrics (no other exporter is assumed).
    for (const expr of [...rules.map((r) => r.expr), ...dashboardExprs])
      expect(metricsIn(expr)).not.toEqual([]);
  });

  it('has a dashboard of distinct panels, each with a query', () => {
    expect(dashboard.uid).toBe('collab-slack');
    const titles = dashboard.panels.map((p) => p.title);
    expect(new Set(titles).size).toBe(titles.length);
    for (const panel of dashboard.panels) expect(panel.targets.length).toBeGreaterThan(0);
  });

  it.skipIf(!promtool)('passes promtool check rules and the rules unit tests', async () => {
    const checked = await run('promtool', ['check', 'rules', join(root, RULES)]);
    expect(checked.stdout).toContain(`SUCCESS: ${rules.length} rules found`);
    const tested = await run('promtool', ['test', 'rules', join(root, RULES_TESTS)]);
    expect(tested.stdout).toContain('SUCCESS');
  });

  it.skipIf(!promtool)('has dashboard queries that parse as PromQL', async () => {
    // promtool parses a recording rule's expression: one rule per query, the template variable filled in.
    const file = join(scratch, 'dashboard-queries.yaml');
    const records = dashboardExprs.map((expr, i) => ({
      record: `dashboard:query_${i}`,
      expr: expr.replaceAll('$instance', '.*'),
    }));
    writeFileSync(file, toYaml({ groups: [{ name: 'dashboard', rules: records }] }));
    const checked = await run('promtool', ['check', 'rules', file]);
    expect(checked.stdout).toContain(`SUCCESS: ${records.length} rules found`);
  });
});

describe('the metrics alerts rely on', () => {
  it('reports whether Redis answers', async () => {
    const up = connectRedis(REDIS_URL, 'producer');
    const down = connectRedis('redis://127.0.0.1:1', 'producer');
    down.on('error', () => {});
    try {
      await whenReady(up);
      const healthy = createMetrics({ defaults: false });
      healthy.watchRedis(up);
      expect(await healthy.render()).toMatch(/^collab_slack_redis_up 1$/m);
      const broken = createMetrics({ defaults: false });
      broken.watchRedis(up);
      broken.watchRedis(down);
      expect(await broken.render()).toMatch(/^collab_slack_redis_up 0$/m);
    } finally {
      up.disconnect();
      down.disconnect();
    }
  });

  it('reports how late the most overdue schedule is', async () => {
    const redis = connectRedis(REDIS_URL, 'worker');
    const prefix = `test-monitoring-${randomBytes(6).toString('hex')}`;
    const queue = new Queue(QUEUE_NAME, { connection: redis, prefix });
    try {
      const at = Date.now();
      const metrics = createMetrics({ defaults: false, now: () => at + 600_000 });
      metrics.watchQueue(queue);
      expect(await metrics.render()).toMatch(/^collab_slack_scheduler_overdue_seconds 0$/m);
      // Due now; scraped ten minutes later with no worker having taken it.
      await queue.upsertJobScheduler(
        'T1-feed-C1',
        { every: 3_600_000, startDate: new Date(at) },
        { name: 'pollFeed' },
      );
      await queue.upsertJobScheduler(
        'T1-digest-C1',
        { every: 86_400_000, startDate: new Date(at + 3_600_000) },
        { name: 'digest' },
      );
      const overdue = Number(
        /^collab_slack_scheduler_overdue_seconds (\S+)$/m.exec(await metrics.render())?.[1],
      );
      expect(overdue).toBeGreaterThan(590);
      expect(overdue).toBeLessThanOrEqual(600);
    } finally {
      await queue.obliterate({ force: true }).catch(() => {});
      await queue.close();
      await deleteKeys(redis, `${prefix}:*`).catch(() => {});
      redis.disconnect();
    }
  });
});
