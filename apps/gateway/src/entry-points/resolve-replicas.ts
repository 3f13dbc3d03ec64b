import { promises as dns } from 'node:dns';
import { replicaAddresses } from '@ecomm-sync/domain';

/** The operator's page should not wait on a slow resolver; the next poll tries again. */
const RESOLVE_TIMEOUT_MS = 2_000;
/** How long a host's answer is reused: shorter than the page's 5-s poll, so each poll sees a fresh one. */
const REUSE_MS = 4_000;

export type ResolveHost = (host: string) => Promise<{ address: string; family: number }[]>;

const systemResolver: ResolveHost = (host) => dns.lookup(host, { all: true });

/**
 * Every replica behind a readiness URL's host (decision 0054): a headless Service's name resolves to
 * each pod's address, a plain host to one. `resolve` is the system's resolver unless a test gives one.
 */
export function replicaResolver(resolve: ResolveHost = systemResolver, timeoutMs = RESOLVE_TIMEOUT_MS, reuseMs = REUSE_MS) {
  // One look-up per host at a time, its answer reused for a few seconds: the system's resolver runs
  // on libuv's four worker threads, shared with file and crypto work, and a look-up that outlives its
  // timeout still holds one; every open operations page polls every 5 s.
  const recent = new Map<string, { at: number; answer: Promise<Resolved> }>();
  return (host: string): Promise<Resolved> => {
    const now = Date.now();
    const known = recent.get(host);
    if (known && now - known.at < reuseMs) return known.answer;
    const answer = lookUp(resolve, host, timeoutMs);
    recent.set(host, { at: now, answer });
    return answer;
  };
}

type Resolved = { addresses: string[] } | { unresolved: string };

async function lookUp(resolve: ResolveHost, host: string, timeoutMs: number): Promise<Resolved> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`${host} did not resolve within ${timeoutMs} ms`)), timeoutMs);
  });
  try {
    return { addresses: replicaAddresses(await Promise.race([resolve(host), timeout])) };
  } catch (error) {
    return { unresolved: error instanceof Error ? error.message : String(error) };
  } finally {
    clearTimeout(timer);
  }
}
