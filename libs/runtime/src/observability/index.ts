export { parseTraceparent, formatTraceparent, newTraceId, newSpanId } from './trace-context';
export type { TraceContext } from './trace-context';
export { startTracing, stopTracing, tracingEnabled, currentTrace, startSpan, runInSpan, inSpan } from './tracing';
export type { ActiveSpan, SpanOptions, SpanKindName } from './tracing';
export { LabelCap, OTHER_LABEL } from './label-cap';
export {
  metricsRegistry,
  startMetrics,
  metricsEnabled,
  metricsText,
  observeHttpRequest,
  messageMetrics,
  observeSyncLag,
  countCrmRequest,
  countCrmRequestLog,
  observeBudgetWait,
  observeIntakePace,
  registerQueueDepths,
} from './metrics';
export type { QueueDepth, Settlement } from './metrics';
