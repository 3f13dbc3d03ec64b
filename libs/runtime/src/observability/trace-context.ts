import { randomHex } from './random-hex';

/** A W3C trace context (https://www.w3.org/TR/trace-context/): the trace, the parent span, and whether it is sampled. */
export interface TraceContext {
  traceId: string;
  spanId: string;
  sampled: boolean;
}

const TRACEPARENT = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(-.*)?$/;
const ALL_ZEROS = /^0+$/;

/**
 * Reads a `traceparent` header; anything not valid (wrong shape, upper case, version ff, all-zero
 * ids, extra fields on version 00) is no parent at all, so the receiver starts a new trace.
 */
export function parseTraceparent(header: unknown): TraceContext | undefined {
  const value = Buffer.isBuffer(header) ? header.toString('latin1') : header;
  if (typeof value !== 'string') return undefined;
  const match = TRACEPARENT.exec(value.trim());
  if (!match) return undefined;
  const [, version, traceId, spanId, flags, rest] = match;
  if (version === 'ff' || (version === '00' && rest !== undefined)) return undefined;
  if (ALL_ZEROS.test(traceId) || ALL_ZEROS.test(spanId)) return undefined;
  return { traceId, spanId, sampled: (parseInt(flags, 16) & 1) === 1 };
}

export const formatTraceparent = ({ traceId, spanId, sampled }: TraceContext): string => `00-${traceId}-${spanId}-${sampled ? '01' : '00'}`;

export const newTraceId = (): string => randomHex(16);
export const newSpanId = (): string => randomHex(8);
