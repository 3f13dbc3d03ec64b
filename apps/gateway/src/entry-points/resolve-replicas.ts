import { promises as dns } from 'node:dns';
import { replicaAddresses } from '@ecomm-sync/domain';

/** The operator's page should not wait on a slow resolver; the next poll tries again. */
const RESOLVE_TIMEOUT_MS = 2_000;

export type ResolveHost = (host: string) => Promise<{ address: string; family: number }[]>;

const systemResolver: ResolveHost = (host) => dns.lookup(host, { all: true });

/**
 * Every replica behind a readiness URL's host (decision 0054): a headless Service's name resolves to
 * each pod's address, a plain host to one. `resolve` is the system's resolver unless a test gives one.
 */
export function replicaResolver(resolve: ResolveHost = systemResolver, timeoutMs = RESOLVE_TIMEOUT_MS) {
  return async (host: string): Promise<{ addresses: string[] } | { unresolved: string }> => {
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
  };
}
