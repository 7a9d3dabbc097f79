/**
 * What operators run it with, checked without Docker or a cluster: compose.yaml, the Kubernetes
 * manifests (each document validated against the Kubernetes schemas by kubernetes-models), the
 * image's labels and .dockerignore. Every variable they set is one config.ts knows.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Model } from '@kubernetes-models/base';
import { Deployment } from 'kubernetes-models/apps/v1';
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1';
import { ConfigMap, Secret, Service } from 'kubernetes-models/v1';
import { describe, expect, it } from 'vitest';
import { parse, parseAllDocuments } from 'yaml';
import { CONFIG_DOCS, loadConfig } from '../src/config.ts';

const root = new URL('..', import.meta.url).pathname;
const read = (path: string) => readFileSync(join(root, path), 'utf8');
const known = new Set(Object.keys(CONFIG_DOCS));
/** A production configuration, to read config.ts's defaults from. */
const configured = (env: Record<string, string> = {}) =>
  loadConfig({
    SLACK_SIGNING_SECRET: 's',
    SLACK_BOT_TOKEN: 'xoxb-1',
    COLLAB_API_URL: 'https://collab.example.com',
    COLLAB_API_KEY: 'k',
    ...env,
  });
/** How long main.ts gives a stopping process before it exits anyway. */
const STOP_BUDGET_SECONDS = 30;

interface ComposeService {
  image?: string;
  build?: unknown;
  command?: string[];
  entrypoint?: string[];
  environment?: Record<string, string>;
  env_file?: string | string[];
  healthcheck?: { test: string[] };
  depends_on?: Record<string, { condition: string }>;
  volumes?: string[];
  stop_grace_period?: string;
}

describe('compose.yaml', () => {
  const compose = parse(read('compose.yaml'), { merge: true }) as {
    services: Record<string, ComposeService>;
    volumes: Record<string, unknown>;
  };
  const { redis, web, worker } = compose.services;

  it('runs Redis with AOF synced on every write, no eviction, on a volume, with a health check', () => {
    expect(redis?.image).toMatch(/^redis:/);
    const args = (redis?.command ?? []).join(' ');
    expect(args).toContain('--appendonly yes');
    expect(args).toContain('--appendfsync always');
    expect(args).toContain('--maxmemory-policy noeviction');
    const [volume] = redis?.volumes ?? [];
    expect(volume).toMatch(/^[\w-]+:\/data$/);
    expect(Object.keys(compose.volumes)).toContain(volume!.split(':')[0]);
    expect(redis?.healthcheck?.test).toEqual(['CMD', 'redis-cli', 'ping']);
  });

  it('runs the web and the worker role from the one image, after Redis is healthy, secrets from env_file', () => {
    expect(Object.keys(compose.services).sort()).toEqual(['redis', 'web', 'worker']);
    for (const [service, role] of [
      [web, 'web'],
      [worker, 'worker'],
    ] as const) {
      expect(service?.build).toBe('.');
      expect(service?.image).toBe(web?.image);
      expect(service?.environment?.ROLE).toBe(role);
      expect(configured(service?.environment).role).toBe(role);
      expect(service?.entrypoint?.at(-1)).toBe('dist/main.js');
      expect(service?.env_file).toBe('.env');
      expect(service?.depends_on?.redis?.condition).toBe('service_healthy');
      expect(service?.healthcheck?.test.join(' ')).toContain(
        `127.0.0.1:${service?.environment?.PORT}/healthz`,
      );
      // Longer than the process's own stop budget: active jobs finish.
      expect(Number.parseInt(service?.stop_grace_period ?? '0', 10)).toBeGreaterThan(STOP_BUDGET_SECONDS);
    }
    // The web role's recommended heap cap (docs/operations.md, Memory).
    expect(web?.entrypoint).toContain('--max-old-space-size=96');
  });

  it('sets only variables config.ts knows, in the services and in .env.example', () => {
    for (const service of [web, worker]) {
      for (const name of Object.keys(service?.environment ?? {})) expect(known).toContain(name);
    }
    const example = read('.env.example')
      .split('\n')
      .map((line) => /^#?\s*([A-Z][A-Z0-9_]*)=/.exec(line)?.[1])
      .filter((name): name is string => name !== undefined);
    expect(example.length).toBeGreaterThan(5);
    for (const name of example) expect(known).toContain(name);
  });
});

describe('the image', () => {
  const dockerfile = read('Dockerfile');
  const version = (JSON.parse(read('package.json')) as { version: string }).version;

  it('carries OCI labels, its version the package version by default', () => {
    for (const label of ['title', 'description', 'licenses', 'version', 'revision']) {
      expect(dockerfile).toContain(`org.opencontainers.image.${label}=`);
    }
    expect(dockerfile).toContain(`ARG VERSION=${version}`);
  });

  it('is built from a context without secrets, dependencies or local state', () => {
    const ignored = read('.dockerignore').split('\n');
    for (const entry of ['.git', 'node_modules', 'dist', '.env', '.env.*', 'test'])
      expect(ignored).toContain(entry);
    // What the Dockerfile copies stays in the context.
    for (const copied of dockerfile.matchAll(/^COPY (?!--from)(?:--\S+ )*(.+) \S+$/gm)) {
      for (const path of copied[1]!.split(' ')) expect(ignored).not.toContain(path);
    }
  });
});

describe('Kubernetes manifests (deploy/kubernetes)', () => {
  const dir = 'deploy/kubernetes';
  const kustomization = parse(read(`${dir}/kustomization.yaml`)) as { resources: string[]; kind: string };
  const documents = (file: string) =>
    parseAllDocuments(read(`${dir}/${file}`)).map((doc) => {
      expect(doc.errors).toEqual([]);
      return doc.toJS() as { kind: string; apiVersion: string; metadata: { name: string } };
    });
  const applied = kustomization.resources.flatMap(documents);
  const models: Record<string, new (data: never) => Model<unknown>> = {
    'apps/v1/Deployment': Deployment,
    'v1/Service': Service,
    'v1/ConfigMap': ConfigMap,
    'v1/Secret': Secret,
    'policy/v1/PodDisruptionBudget': PodDisruptionBudget,
  };
  const find = <T>(kind: string, name: string) => {
    const found = applied.find((d) => d.kind === kind && d.metadata.name === name);
    if (!found) throw new Error(`no ${kind} ${name}`);
    return found as unknown as T;
  };
  type Container = {
    command: string[];
    envFrom: Array<{ configMapRef?: { name: string }; secretRef?: { name: string } }>;
    ports: Array<{ name: string; containerPort: number }>;
    readinessProbe?: { httpGet: { path: string; port: string } };
    livenessProbe?: { httpGet: { path: string; port: string } };
  };
  type Workload = {
    spec: {
      selector: { matchLabels: Record<string, string> };
      template: {
        metadata: { labels: Record<string, string> };
        spec: { terminationGracePeriodSeconds: number; containers: Container[] };
      };
    };
  };
  const configMap = find<{ data: Record<string, string> }>('ConfigMap', 'collab-slack');
  const config = configured(configMap.data);

  it('is a kustomization of documents that each pass the Kubernetes schemas', () => {
    expect(kustomization.kind).toBe('Kustomization');
    const all = [...applied, ...documents('secret.example.yaml')];
    expect(all.map((d) => d.kind).sort()).toEqual([
      'ConfigMap',
      'Deployment',
      'Deployment',
      'PodDisruptionBudget',
      'Secret',
      'Service',
    ]);
    for (const doc of all) {
      const Kind = models[`${doc.apiVersion}/${doc.kind}`];
      expect(Kind, `${doc.apiVersion} ${doc.kind}`).toBeDefined();
      expect(() => new Kind!(doc as never).validate()).not.toThrow();
    }
    // The Secret is created from .env, never applied from the repository.
    expect(kustomization.resources).not.toContain('secret.example.yaml');
  });

  it('runs the web role behind a Service, with /readyz and /healthz probes and a disruption budget', () => {
    const web = find<Workload>('Deployment', 'collab-slack-web');
    const [container] = web.spec.template.spec.containers;
    expect(container?.command).toEqual(['node', '--max-old-space-size=96', 'dist/main.js', '--role', 'web']);
    const port = container!.ports.find((p) => p.name === 'http');
    expect(port?.containerPort).toBe(config.port);
    expect(container?.readinessProbe?.httpGet).toEqual({ path: '/readyz', port: 'http' });
    expect(container?.livenessProbe?.httpGet).toEqual({ path: '/healthz', port: 'http' });
    const labels = web.spec.template.metadata.labels;
    expect(web.spec.selector.matchLabels).toEqual(labels);
    const service = find<{
      spec: { selector: Record<string, string>; ports: Array<{ targetPort: string }> };
    }>('Service', 'collab-slack-web');
    expect(service.spec.selector).toEqual(labels);
    expect(service.spec.ports[0]?.targetPort).toBe('http');
    const budget = find<{
      spec: { minAvailable: number; selector: { matchLabels: Record<string, string> } };
    }>('PodDisruptionBudget', 'collab-slack-web');
    expect(budget.spec.selector.matchLabels).toEqual(labels);
    expect(budget.spec.minAvailable).toBeGreaterThanOrEqual(1);
  });

  it('gives a stopping worker longer than its stop budget and the job lock', () => {
    const worker = find<Workload>('Deployment', 'collab-slack-worker');
    const spec = worker.spec.template.spec;
    expect(spec.containers[0]?.command).toEqual(['node', 'dist/main.js', '--role', 'worker']);
    expect(spec.containers[0]?.livenessProbe?.httpGet).toEqual({ path: '/healthz', port: 'http' });
    expect(spec.terminationGracePeriodSeconds).toBeGreaterThan(config.worker.lockMs / 1000);
    expect(spec.terminationGracePeriodSeconds).toBeGreaterThan(STOP_BUDGET_SECONDS);
    const web = find<Workload>('Deployment', 'collab-slack-web');
    expect(web.spec.template.spec.terminationGracePeriodSeconds).toBeGreaterThan(STOP_BUDGET_SECONDS);
  });

  it('reads secrets from the Secret and the rest from the ConfigMap, naming only variables config.ts knows', () => {
    for (const name of ['collab-slack-web', 'collab-slack-worker']) {
      const [container] = find<Workload>('Deployment', name).spec.template.spec.containers;
      expect(container?.envFrom).toEqual([
        { configMapRef: { name: 'collab-slack' } },
        { secretRef: { name: 'collab-slack' } },
      ]);
    }
    for (const name of Object.keys(configMap.data)) expect(known).toContain(name);
    const secret = documents('secret.example.yaml')[0] as unknown as { stringData: Record<string, string> };
    for (const name of Object.keys(secret.stringData)) expect(known).toContain(name);
    for (const name of ['SLACK_SIGNING_SECRET', 'SLACK_BOT_TOKEN', 'COLLAB_API_KEY', 'REDIS_URL']) {
      expect(Object.keys(secret.stringData)).toContain(name);
      expect(Object.keys(configMap.data)).not.toContain(name);
    }
  });

  it('has no other files than the ones checked here', () => {
    expect(readdirSync(join(root, dir)).sort()).toEqual(
      ['configmap.yaml', 'kustomization.yaml', 'secret.example.yaml', 'web.yaml', 'worker.yaml'].sort(),
    );
  });
});
