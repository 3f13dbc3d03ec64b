/** Rules of the operator's console view: which services to ask, and what their answers mean. */

export interface ServiceAddress {
  service: string;
  url: string;
}

/**
 * Parses `name=url` pairs separated by commas (SERVICE_READINESS_URLS). Throws a RangeError
 * naming the bad pair: a mistyped list should stop the gateway at start, not show nothing.
 */
export function parseServiceAddresses(list: string): ServiceAddress[] {
  const pairs = list
    .split(',')
    .map((pair) => pair.trim())
    .filter((pair) => pair !== '');
  const seen = new Set<string>();
  return pairs.map((pair) => {
    const at = pair.indexOf('=');
    const service = at > 0 ? pair.slice(0, at).trim() : '';
    const url =
      at > 0
        ? pair
            .slice(at + 1)
            .trim()
            .replace(/\/+$/, '')
        : '';
    if (!/^[a-z][a-z0-9-]*$/.test(service) || !/^https?:\/\/[^\s/]+/.test(url)) throw new RangeError(`"${pair}" is not name=http(s)://host:port`);
    if (seen.has(service)) throw new RangeError(`service "${service}" is named twice`);
    seen.add(service);
    return { service, url };
  });
}

/** A GET /readyz answer, or why there was none. */
export type ReadyzAnswer = { status: number; body: unknown } | { unreachable: string };

/** What one GET /readyz answer (or its absence) says. */
export function readinessOf(answer: ReadyzAnswer): { ready: boolean; status: number | null; detail: string } {
  if ('unreachable' in answer) return { ready: false, status: null, detail: `no answer: ${answer.unreachable}` };
  const failing =
    answer.body && typeof answer.body === 'object' && Array.isArray((answer.body as { failing?: unknown }).failing)
      ? ((answer.body as { failing: unknown[] }).failing.map(String) as string[])
      : [];
  if (answer.status === 200) return { ready: true, status: 200, detail: 'ready' };
  if (failing.length > 0) return { ready: false, status: answer.status, detail: `not ready: ${failing.join(', ')} failing` };
  return { ready: false, status: answer.status, detail: `not ready: answered ${answer.status}` };
}

export interface ReplicaReadiness {
  /** The address the service's host resolved to (one pod behind a headless Service). */
  address: string;
  ready: boolean;
  status: number | null;
  detail: string;
}

export interface ServiceReadiness {
  /** ready: every replica is; partly ready: some are; not ready: none is, or the host resolved to none. */
  state: 'ready' | 'partly ready' | 'not ready';
  /** Every replica is ready (state "ready"). */
  ready: boolean;
  /** The status every replica answered, or null when they differ or none answered. */
  status: number | null;
  detail: string;
  readyReplicas: number;
  replicas: ReplicaReadiness[];
}

/**
 * Which resolved addresses are replicas: each once, and IPv4 only when there is one, since a
 * dual-stack pod (or localhost) has an address of each family and is still one replica.
 */
export function replicaAddresses(resolved: readonly { address: string; family: number }[]): string[] {
  const preferred = resolved.some((a) => a.family === 4) ? resolved.filter((a) => a.family === 4) : resolved;
  return [...new Set(preferred.map((a) => a.address))];
}

const byAddress = (a: ReplicaReadiness, b: ReplicaReadiness) => a.address.localeCompare(b.address, 'en', { numeric: true });

/**
 * A service's readiness from each replica's /readyz answer, or from why its host resolved to no
 * address. One replica reads as that replica's answer (as before replicas were asked one by one);
 * several read as "k of n replicas ready" followed by each failing replica and its failure.
 */
export function serviceReadinessOf(answers: readonly { address: string; answer: ReadyzAnswer }[] | { unresolved: string }): ServiceReadiness {
  if ('unresolved' in answers)
    return { state: 'not ready', ready: false, status: null, detail: `no address: ${answers.unresolved}`, readyReplicas: 0, replicas: [] };
  const replicas = answers.map(({ address, answer }) => ({ address, ...readinessOf(answer) })).sort(byAddress);
  const readyReplicas = replicas.filter((r) => r.ready).length;
  const state = replicas.length > 0 && readyReplicas === replicas.length ? 'ready' : readyReplicas > 0 ? 'partly ready' : 'not ready';
  const statuses = new Set(replicas.map((r) => r.status));
  const status = statuses.size === 1 ? [...statuses][0] : null;
  const failures = replicas.filter((r) => !r.ready).map((r) => `${r.address}: ${r.detail}`);
  const detail =
    replicas.length === 0
      ? 'no address: the host resolved to none'
      : replicas.length === 1
        ? replicas[0].detail
        : [`${readyReplicas} of ${replicas.length} replicas ready`, ...failures].join('; ');
  return { state, ready: state === 'ready', status, detail, readyReplicas, replicas };
}

/**
 * The portal a CRM account's budget key belongs to (decision 20's keys, an OAuth app's per portal
 * since decision 22's addendum of 2026-12-06); null for a key of before, an OAuth app's shared by portals.
 */
export function portalOfCrmAccount(accountKey: string): number | null {
  const oauth = accountKey.includes(':app:');
  const match = (oauth ? /^hosted:.+:app:.+:(\d+)$/ : /^(?:builtin:|hosted:.+:)(\d+)$/).exec(accountKey);
  if (!match) return null;
  const portalId = Number(match[1]);
  return Number.isSafeInteger(portalId) && portalId > 0 ? portalId : null;
}
