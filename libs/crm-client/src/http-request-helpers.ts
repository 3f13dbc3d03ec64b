import http from 'node:http';
import https from 'node:https';
import type { AxiosRequestConfig } from 'axios';
import { runBounded } from '@ecomm-sync/domain';
import { formatTraceparent, type ActiveSpan } from '@ecomm-sync/runtime';
import { CRM_BATCH_LIMIT, type CrmObject } from './crm-port';

/** The small pieces of HttpCrmClient's requests: connection pooling, headers, trace, batches. */

/**
 * Kept-alive connections, as many as requests in flight: a request that queued here for a socket
 * would leave after its budget permit's slot (decision 20), and the rate is bounded already, by
 * the account's budget and by the applier's own concurrency.
 */
export const agents = { httpAgent: new http.Agent({ keepAlive: true }), httpsAgent: new https.Agent({ keepAlive: true }) };

export interface ApiObject {
  id: string;
  properties: Record<string, string | null>;
}

export const lowerCased = (headers: unknown): Record<string, string | undefined> =>
  Object.fromEntries(
    Object.entries((headers as { toJSON?: () => object } | undefined)?.toJSON?.() ?? headers ?? {}).map(([name, value]) => [
      name.toLowerCase(),
      value === undefined || value === null ? undefined : Array.isArray(value) ? value.join(', ') : String(value),
    ]),
  );

/** The request with a `traceparent` header naming its span (the CRM can continue the trace). */
export const withTraceparent = (config: AxiosRequestConfig, span: ActiveSpan | undefined): AxiosRequestConfig =>
  span ? { ...config, headers: { ...(config.headers as Record<string, string> | undefined), traceparent: formatTraceparent(span.context) } } : config;

export const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
export const isSearch = (url: string | undefined): boolean => /\/search$/.test(url ?? '');

export const toCrmObject = (object: ApiObject): CrmObject => ({ id: Number(object.id), properties: object.properties });

/**
 * A write's properties as the CRM's API takes them: a property the port clears (null) is sent as
 * the empty string. The hosted CRM clears a property given "" and leaves one given null as it was
 * (the SDK's input models type values as strings); the built-in CRM does the same.
 */
export const onTheWire = (properties: Record<string, string | null>): Record<string, string> =>
  Object.fromEntries(Object.entries(properties).map(([name, value]) => [name, value ?? '']));

export function chunks<T>(items: readonly T[], size = CRM_BATCH_LIMIT): T[][] {
  const result: T[][] = [];
  for (let i = 0; i < items.length; i += size) result.push(items.slice(i, i + size));
  return result;
}

/** Chunks of one batch call sent side by side unless said otherwise (decision 20, addendum). */
export const DEFAULT_CHUNKS_AT_ONCE = 4;

/**
 * How many chunks of one call may go side by side: one at a time when a record (`keys`) comes
 * twice, since two chunks writing it at once would land in either order (and the CRM answers 423
 * to concurrent writes of one record).
 */
export function chunksAtOnceFor(atOnce: number, keys: readonly (string | number | null)[]): number {
  const named = keys.filter((key) => key !== null);
  return new Set(named).size === named.length ? Math.max(1, atOnce) : 1;
}

/**
 * Chunks of a batch request sent side by side, at most `atOnce` at a time (the account's budget
 * paces them), the answers in the chunks' order. A CRM an ocean away answers a batch in 150–300 ms:
 * one chunk at a time would hold a replica to a few requests a second, well under what an account
 * allows. After a failure no further chunk starts; the ones already sent are waited for (a chunk
 * still waiting for its permit is sent when it gets one), then the first failure is thrown. What the
 * others wrote stays written, as with one at a time (the applier's creates go by a key the CRM
 * holds once, so its retry finds them).
 */
export async function sendChunks<T, R>(
  items: readonly T[],
  atOnce: number,
  send: (chunk: T[], from: number) => Promise<R>,
  keyOf?: (item: T) => string | number | null,
): Promise<R[]> {
  const answers: R[] = [];
  const indexes = chunksOnceEach(items, keyOf).map((chunk, index) => ({ ...chunk, index }));
  await runBounded(indexes, atOnce, async ({ chunk, from, index }) => {
    answers[index] = await send(chunk, from);
  });
  return answers;
}

/**
 * Chunks of at most `size` items, in order, none naming one record twice (`keyOf`; null names
 * none): the hosted CRM refuses a whole batch that does (400 "Duplicate IDs found in batch input"),
 * so a record's second input starts the next chunk. `from`: the index of a chunk's first item.
 */
export function chunksOnceEach<T>(items: readonly T[], keyOf?: (item: T) => string | number | null, size = CRM_BATCH_LIMIT): { chunk: T[]; from: number }[] {
  if (!keyOf) return chunks(items, size).map((chunk, index) => ({ chunk, from: index * size }));
  const result: { chunk: T[]; from: number }[] = [];
  let current: { chunk: T[]; from: number; keys: Set<string | number> } | null = null;
  items.forEach((item, index) => {
    const key = keyOf(item);
    if (!current || current.chunk.length >= size || (key !== null && current.keys.has(key))) {
      current = { chunk: [], from: index, keys: new Set() };
      result.push(current);
    }
    current.chunk.push(item);
    if (key !== null) current.keys.add(key);
  });
  return result.map(({ chunk, from }) => ({ chunk, from }));
}
