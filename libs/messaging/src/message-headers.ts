import { randomUUID } from 'node:crypto';
import { currentLogContext, currentTrace, formatTraceparent, newSpanId, newTraceId, tracingEnabled } from '@ecomm-sync/runtime';
import { ACCEPTED_AT_HEADER, ATTEMPT_HEADER, CORRELATION_HEADER, TRACEPARENT_HEADER } from './settlement';

/**
 * The headers of a message published now (readMessage in settlement.ts reads them back): its
 * correlation id (the one given, else the current work's, else a new one), attempt 1, the time its
 * data was accepted (the current work's, else now) and, with tracing on, the current trace (a new
 * one outside any).
 */
export function newMessageHeaders(correlationId?: string): Record<string, unknown> {
  const context = currentLogContext();
  const headers: Record<string, unknown> = {
    [CORRELATION_HEADER]: correlationId ?? context.correlationId ?? randomUUID(),
    [ATTEMPT_HEADER]: 1,
    [ACCEPTED_AT_HEADER]: context.acceptedAt ?? Date.now(),
  };
  if (tracingEnabled()) headers[TRACEPARENT_HEADER] = formatTraceparent(currentTrace() ?? { traceId: newTraceId(), spanId: newSpanId(), sampled: true });
  return headers;
}
