/**
 * One trace per request: a signed `/collab posts` through the real Bolt endpoint, the enqueue,
 * the BullMQ job, the call to the service and the answer on Slack's response_url, exported to
 * an in-memory exporter. Asserts the spans and their parent links.
 */

import { readdirSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { SpanKind } from '@opentelemetry/api';
import { InMemorySpanExporter, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTracing, type Tracing } from '../../src/ops/tracing.ts';
import { type Harness, startHarness } from '../support/harness.ts';

/** The in-memory exporter, telling whoever waits when a span they look for is exported. */
class WatchedExporter extends InMemorySpanExporter {
  private waiters: Array<{ test: (span: ReadableSpan) => boolean; resolve: (span: ReadableSpan) => void }> =
    [];
  override export(spans: ReadableSpan[], done: Parameters<InMemorySpanExporter['export']>[1]): void {
    super.export(spans, done);
    for (const span of spans) {
      for (const waiter of this.waiters.filter((w) => w.test(span))) {
        this.waiters = this.waiters.filter((w) => w !== waiter);
        waiter.resolve(span);
      }
    }
  }
  span(test: (span: ReadableSpan) => boolean): Promise<ReadableSpan> {
    const found = this.getFinishedSpans().find(test);
    if (found) return Promise.resolve(found);
    return new Promise((resolve) => this.waiters.push({ test, resolve }));
  }
}

const parentOf = (span: ReadableSpan) => span.parentSpanContext?.spanId;
const pathOf = (span: ReadableSpan) => new URL(String(span.attributes['url.full'] ?? 'http://-/')).pathname;

describe('tracing', () => {
  const exporter = new WatchedExporter();
  let tracing: Tracing;
  let h: Harness;
  beforeAll(async () => {
    tracing = (await startTracing({ serviceName: 'collab-slack-test', exporter }))!;
    h = await startHarness({ tracing });
  });
  afterAll(async () => {
    await h.close();
    await tracing.shutdown();
  });

  it('is off without an endpoint', async () => {
    expect(await startTracing({ serviceName: 'collab-slack' })).toBeUndefined();
  });

  it('loads OpenTelemetry only when on: no source file imports it statically', () => {
    const root = new URL('../../src/', import.meta.url).pathname;
    const files = readdirSync(root, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts'));
    const statically = files.filter((file) =>
      /^import (?!type )[^;]*from '(@opentelemetry\/|bullmq-otel)/m.test(
        readFileSync(join(root, file), 'utf8'),
      ),
    );
    expect(statically).toEqual([]);
    expect(readFileSync(join(root, 'ops/tracing.ts'), 'utf8')).toContain(
      "import('@opentelemetry/sdk-trace-node')",
    );
  });

  it('follows a command from the Slack request through the enqueue, the job and the service call to the answer', async () => {
    const answered = h.slackCall((call) => call.method === 'response_url');
    const response = await h.command('posts');
    expect(response.status).toBe(200);
    await answered;

    const request = await exporter.span((s) => s.name === 'slack command');
    expect(request.kind).toBe(SpanKind.SERVER);
    expect(request.attributes['slack.command']).toBe('/collab');
    expect(parentOf(request)).toBeUndefined();
    const trace = request.spanContext().traceId;
    const inTrace = (s: ReadableSpan) => s.spanContext().traceId === trace;

    const enqueue = await exporter.span((s) => inTrace(s) && s.kind === SpanKind.PRODUCER);
    expect(enqueue.name).toContain('listPosts');
    expect(parentOf(enqueue)).toBe(request.spanContext().spanId);

    const job = await exporter.span((s) => inTrace(s) && s.kind === SpanKind.CONSUMER);
    expect(parentOf(job)).toBe(enqueue.spanContext().spanId);

    const serviceCall = await exporter.span(
      (s) => inTrace(s) && s.kind === SpanKind.CLIENT && pathOf(s) === '/v2/posts',
    );
    expect(serviceCall.attributes['http.request.method']).toBe('GET');
    expect(serviceCall.attributes['http.response.status_code']).toBe(200);
    expect(parentOf(serviceCall)).toBe(job.spanContext().spanId);

    const answer = await exporter.span(
      (s) => inTrace(s) && s.kind === SpanKind.CLIENT && pathOf(s).startsWith('/response/'),
    );
    expect(answer.attributes['http.request.method']).toBe('POST');
    expect(parentOf(answer)).toBe(job.spanContext().spanId);
  });
});

describe('tracing configured by OTEL_EXPORTER_OTLP_ENDPOINT', () => {
  const received: Array<{ path: string; body: string }> = [];
  let collector: Server;
  let h: Harness | undefined;
  beforeAll(async () => {
    // A stand-in OTLP/HTTP collector on loopback.
    collector = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => {
        body += chunk.toString();
      });
      req.on('end', () => {
        received.push({ path: req.url ?? '', body });
        res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      });
    });
    await new Promise<void>((resolve) => collector.listen(0, '127.0.0.1', resolve));
  });
  afterAll(async () => {
    await h?.close();
    await new Promise((resolve) => collector.close(resolve));
  });

  it('sends the trace of a command to <endpoint>/v1/traces, flushed when the bot stops', async () => {
    const endpoint = `http://127.0.0.1:${(collector.address() as AddressInfo).port}`;
    h = await startHarness({
      env: { OTEL_EXPORTER_OTLP_ENDPOINT: endpoint, OTEL_SERVICE_NAME: 'collab-slack-otlp' },
    });
    const answered = h.slackCall((call) => call.method === 'response_url');
    await h.command('posts');
    await answered;
    await h.close();
    h = undefined;
    expect(received.length).toBeGreaterThan(0);
    expect(new Set(received.map((r) => r.path))).toEqual(new Set(['/v1/traces']));
    const all = received.map((r) => r.body).join('\n');
    expect(all).toContain('collab-slack-otlp');
    for (const name of ['slack command', 'add operations.listPosts', 'process operations']) {
      expect(all).toContain(name);
    }
  });
});
