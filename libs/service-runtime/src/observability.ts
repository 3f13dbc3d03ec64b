import { startMetrics, startTracing, stopTracing } from '@ecomm-sync/runtime';

export interface ObservabilityConfig {
  METRICS_ENABLED: boolean;
  TRACING_ENABLED: boolean;
  OTEL_EXPORTER_OTLP_ENDPOINT?: string;
}

/** Metrics and tracing as configured (libs/runtime/src/config commonKeys); `stop` flushes the spans not exported yet. */
export async function startObservability(service: string, config: ObservabilityConfig): Promise<{ stop: () => Promise<void> }> {
  startMetrics({ enabled: config.METRICS_ENABLED });
  await startTracing(service, { enabled: config.TRACING_ENABLED, otlpEndpoint: config.OTEL_EXPORTER_OTLP_ENDPOINT });
  return { stop: stopTracing };
}
