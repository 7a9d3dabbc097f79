/**
 * OpenTelemetry tracing, off unless OTEL_EXPORTER_OTLP_ENDPOINT is set; when off, no
 * OpenTelemetry module is even loaded (every import below is dynamic).
 *
 * One trace follows a person's request: the Slack request (a span around Bolt's processEvent)
 * → the enqueue (BullMQ's own telemetry through `bullmq-otel`: a producer span, its context
 * carried in the job) → the job (BullMQ's consumer span, a child of the enqueue) → the calls to
 * the collaboration service and the answer to Slack's response_url (undici's client spans, through
 * diagnostics_channel, so they need no module patching).
 */
import type { SpanExporter } from '@opentelemetry/sdk-trace-base';
import type { App, ReceiverEvent } from '@slack/bolt';
import type { Telemetry } from 'bullmq';
import { surfaceOf } from '../slack/app.ts';

export interface TracingSettings {
  serviceName: string;
  /** OTLP/HTTP collector base url; traces are sent to `<endpoint>/v1/traces` */
  endpoint?: string;
  /** replaces the OTLP exporter, spans exported one by one (tests, a local console) */
  exporter?: SpanExporter;
}

export interface Tracing {
  /** BullMQ's telemetry option, for the queue and the worker */
  telemetry: Telemetry;
  /** wraps the app's processEvent so each Slack request is one server span, the root of its trace */
  traceSlackRequests(app: App): void;
  /** flushes what is buffered and unregisters everything it registered */
  shutdown(): Promise<void>;
}

/** Starts tracing when there is somewhere to send spans; undefined (nothing loaded) otherwise. */
export async function startTracing(settings: TracingSettings): Promise<Tracing | undefined> {
  if (settings.endpoint === undefined && settings.exporter === undefined) return undefined;
  const [api, node, base, resources, instrumentation, undici, bullmqOtel] = await Promise.all([
    import('@opentelemetry/api'),
    import('@opentelemetry/sdk-trace-node'),
    import('@opentelemetry/sdk-trace-base'),
    import('@opentelemetry/resources'),
    import('@opentelemetry/instrumentation'),
    import('@opentelemetry/instrumentation-undici'),
    import('bullmq-otel'),
  ]);
  let processor: InstanceType<typeof base.SimpleSpanProcessor> | InstanceType<typeof base.BatchSpanProcessor>;
  if (settings.exporter) {
    processor = new base.SimpleSpanProcessor(settings.exporter);
  } else {
    const { OTLPTraceExporter } = await import('@opentelemetry/exporter-trace-otlp-http');
    const url = `${settings.endpoint!.replace(/\/+$/, '')}/v1/traces`;
    processor = new base.BatchSpanProcessor(new OTLPTraceExporter({ url }));
  }
  const provider = new node.NodeTracerProvider({
    resource: resources.resourceFromAttributes({ 'service.name': settings.serviceName }),
    spanProcessors: [processor],
  });
  // The global provider, AsyncLocalStorage context and W3C propagation: BullMQ and undici use them.
  provider.register();
  const disableInstrumentations = instrumentation.registerInstrumentations({
    tracerProvider: provider,
    instrumentations: [new undici.UndiciInstrumentation()],
  });
  const tracer = provider.getTracer('collab-slack');

  return {
    telemetry: new bullmqOtel.BullMQOtel({ tracerName: 'bullmq' }) as unknown as Telemetry,
    traceSlackRequests(app) {
      const processEvent = app.processEvent.bind(app);
      app.processEvent = (event: ReceiverEvent) => {
        const body = event.body as Record<string, unknown>;
        const surface = surfaceOf(body);
        const attributes: Record<string, string> = { 'slack.surface': surface };
        const team = teamOf(body);
        if (team) attributes['slack.team_id'] = team;
        if (typeof body.command === 'string') attributes['slack.command'] = body.command;
        return tracer.startActiveSpan(
          `slack ${surface}`,
          { kind: api.SpanKind.SERVER, attributes },
          async (span) => {
            try {
              return await processEvent(event);
            } catch (error) {
              span.recordException(error as Error);
              span.setStatus({ code: api.SpanStatusCode.ERROR });
              throw error;
            } finally {
              span.end();
            }
          },
        );
      };
    },
    async shutdown() {
      disableInstrumentations();
      await provider.shutdown().catch(() => {});
      api.trace.disable();
      api.context.disable();
      api.propagation.disable();
    },
  };
}

function teamOf(body: Record<string, unknown>): string | undefined {
  if (typeof body.team_id === 'string') return body.team_id;
  const team = body.team as { id?: unknown } | undefined;
  return typeof team?.id === 'string' ? team.id : undefined;
}
