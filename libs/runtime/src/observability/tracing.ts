import { ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, type Span, type Tracer } from '@opentelemetry/api';
import { currentLogContext, logContext } from '../logger';
import { newSpanId, newTraceId, type TraceContext } from './trace-context';

export type SpanKindName = 'server' | 'client' | 'producer' | 'consumer' | 'internal';
type Attributes = Record<string, string | number | boolean>;

export interface SpanOptions {
  kind: SpanKindName;
  /** The parent; undefined: the current span (if any); null: a new trace. */
  parent?: TraceContext | null;
  /** Other traces this span continues too (a batch of messages from several requests). */
  links?: TraceContext[];
  attributes?: Attributes;
}

/** A started span: its context (what children and outgoing headers carry), attributes, and its end. */
export interface ActiveSpan {
  readonly context: TraceContext;
  setAttribute(name: string, value: string | number | boolean): void;
  end(error?: unknown): void;
}

const KINDS: Record<SpanKindName, SpanKind> = {
  server: SpanKind.SERVER,
  client: SpanKind.CLIENT,
  producer: SpanKind.PRODUCER,
  consumer: SpanKind.CONSUMER,
  internal: SpanKind.INTERNAL,
};

interface TracingState {
  enabled: boolean;
  /** Only with OTEL_EXPORTER_OTLP_ENDPOINT: spans are then recorded and exported. */
  tracer?: Tracer;
  shutdown?: () => Promise<void>;
}

let state: TracingState = { enabled: true };

/**
 * Trace context is carried (and logged) unless `enabled` is false. Spans are recorded and exported
 * over OTLP/HTTP only with an endpoint; the SDK is not even loaded without one, and each span is
 * then two random ids in the async context.
 */
export async function startTracing(service: string, { enabled = true, otlpEndpoint }: { enabled?: boolean; otlpEndpoint?: string }): Promise<void> {
  await stopTracing();
  state = { enabled };
  if (!enabled || !otlpEndpoint) return;
  const [{ BasicTracerProvider, BatchSpanProcessor }, { OTLPTraceExporter }, { resourceFromAttributes }] = await Promise.all([
    import('@opentelemetry/sdk-trace-base'),
    import('@opentelemetry/exporter-trace-otlp-http'),
    import('@opentelemetry/resources'),
  ]);
  const exporter = new OTLPTraceExporter({ url: `${otlpEndpoint.replace(/\/+$/, '')}/v1/traces` });
  const provider = new BasicTracerProvider({
    resource: resourceFromAttributes({ 'service.name': service }),
    spanProcessors: [new BatchSpanProcessor(exporter)],
  });
  state = { enabled, tracer: provider.getTracer('ecomm-sync'), shutdown: () => provider.shutdown() };
}

/** Flushes the spans not exported yet (on shutdown). */
export async function stopTracing(): Promise<void> {
  const { shutdown } = state;
  state = { enabled: state.enabled };
  await shutdown?.().catch(() => undefined);
}

export const tracingEnabled = (): boolean => state.enabled;

/** The span the current work runs in, if any. */
export function currentTrace(): TraceContext | undefined {
  const { traceId, spanId, sampled } = currentLogContext();
  return traceId && spanId ? { traceId, spanId, sampled: sampled ?? true } : undefined;
}

const NO_SPAN: ActiveSpan = { context: { traceId: '', spanId: '', sampled: false }, setAttribute: () => undefined, end: () => undefined };

/** Starts a span; `undefined` when tracing is off. Run work in it with `runInSpan`. */
export function startSpan(name: string, options: SpanOptions): ActiveSpan | undefined {
  if (!state.enabled) return undefined;
  const parent = options.parent === undefined ? currentTrace() : (options.parent ?? undefined);
  if (!state.tracer) {
    return { ...NO_SPAN, context: { traceId: parent?.traceId ?? newTraceId(), spanId: newSpanId(), sampled: parent?.sampled ?? true } };
  }
  const toSpanContext = (context: TraceContext) => ({ traceId: context.traceId, spanId: context.spanId, traceFlags: context.sampled ? 1 : 0, isRemote: true });
  const span: Span = state.tracer.startSpan(
    name,
    { kind: KINDS[options.kind], attributes: options.attributes, links: options.links?.map((link) => ({ context: toSpanContext(link) })) },
    parent ? trace.setSpanContext(ROOT_CONTEXT, toSpanContext(parent)) : ROOT_CONTEXT,
  );
  const { traceId, spanId, traceFlags } = span.spanContext();
  return {
    context: { traceId, spanId, sampled: (traceFlags & 1) === 1 },
    setAttribute: (key, value) => void span.setAttribute(key, value),
    end: (error) => {
      if (error !== undefined) {
        span.recordException(error instanceof Error ? error : String(error));
        span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.message : String(error) });
      }
      span.end();
    },
  };
}

/** Runs fn with the span as the current one (its ids on every log line, its traceparent on what fn sends). */
export function runInSpan<T>(span: ActiveSpan | undefined, fn: () => T): T {
  if (!span) return fn();
  const { traceId, spanId, sampled } = span.context;
  return logContext.run({ traceId, spanId, sampled }, fn);
}

/** Runs fn in a new span that ends when fn's promise settles (failed if it rejects). */
export async function inSpan<T>(name: string, options: SpanOptions, fn: () => Promise<T>): Promise<T> {
  const span = startSpan(name, options);
  if (!span) return fn();
  try {
    const result = await runInSpan(span, fn);
    span.end();
    return result;
  } catch (error) {
    span.end(error);
    throw error;
  }
}
