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

/** What one GET /readyz answer (or its absence) says. */
export function readinessOf(answer: { status: number; body: unknown } | { unreachable: string }): { ready: boolean; status: number | null; detail: string } {
  if ('unreachable' in answer) return { ready: false, status: null, detail: `no answer: ${answer.unreachable}` };
  const failing =
    answer.body && typeof answer.body === 'object' && Array.isArray((answer.body as { failing?: unknown }).failing)
      ? ((answer.body as { failing: unknown[] }).failing.map(String) as string[])
      : [];
  if (answer.status === 200) return { ready: true, status: 200, detail: 'ready' };
  if (failing.length > 0) return { ready: false, status: answer.status, detail: `not ready: ${failing.join(', ')} failing` };
  return { ready: false, status: answer.status, detail: `not ready: answered ${answer.status}` };
}

/** The portal a CRM account's budget key belongs to (decision 20's keys); null for an OAuth app's account, shared by portals. */
export function portalOfCrmAccount(accountKey: string): number | null {
  const match = /^(?:builtin:|hosted:.+:)(\d+)$/.exec(accountKey);
  if (!match || accountKey.includes(':app:')) return null;
  const portalId = Number(match[1]);
  return Number.isSafeInteger(portalId) && portalId > 0 ? portalId : null;
}
