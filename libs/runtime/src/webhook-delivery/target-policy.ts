import { lookup } from 'node:dns/promises';
import http from 'node:http';
import https from 'node:https';
import type { LookupAddress } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import { webhookAddressRefusal } from '@ecomm-sync/domain';

/** Every address a host name resolves to (the port; tests answer what they need). */
export type ResolveHost = (host: string) => Promise<string[]>;

/**
 * Where a webhook may be sent: the addresses that were checked, the only ones to connect to; or
 * why not, `final` unless a look-up that may answer later failed (a DNS server that timed out or
 * answered SERVFAIL: EAI_AGAIN), which is worth trying again.
 */
export type TargetCheck = { refusal: string; final: boolean } | { addresses: string[] };

/** Look-up failures that say the name does not exist (or has no address): asking again will not change them. */
const FINAL_LOOKUP_ERRORS = new Set(['ENOTFOUND', 'ENODATA']);

/**
 * Whether a webhook target may be called: only http(s), and (unless allowed for development) no
 * host with an address that is not public unicast (webhookAddressRefusal), so a setting cannot make
 * the service call into its own network. The host is resolved once, here: the addresses checked
 * are the ones to connect to (pinnedAgents), so a host that answers differently at the next
 * look-up (DNS rebinding) cannot move the request inside. Development resolves and pins the same
 * way; it only skips the refusal.
 */
export async function checkTarget(url: string, allowPrivate: boolean, resolve: ResolveHost = resolveAll): Promise<TargetCheck> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { refusal: `"${url}" is not a URL`, final: true };
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
    return { refusal: `only http and https targets are called, not ${parsed.protocol}`, final: true };
  const host = parsed.hostname.replace(/^\[|\]$/g, '');
  let addresses: string[];
  try {
    addresses = isIP(host) ? [host] : await resolve(host);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException | undefined)?.code;
    const final = code === undefined || FINAL_LOOKUP_ERRORS.has(code);
    return { refusal: `the host ${host} does not resolve${final ? '' : ' now'} (${error instanceof Error ? error.message : String(error)})`, final };
  }
  if (addresses.length === 0) return { refusal: `the host ${host} has no address`, final: true };
  if (!allowPrivate) {
    for (const address of addresses) {
      const refusal = webhookAddressRefusal(address);
      if (!refusal) continue;
      const advice = '(set WEBHOOK_ALLOW_PRIVATE_TARGETS=true only for development)';
      if (isIP(host)) return { refusal: `the target ${host}: ${refusal} ${advice}`, final: true };
      // The refusal is read by whoever set the address (an import's view): a name's private address
      // is not shown, or the refusal would map internal names to internal addresses.
      return {
        refusal: `the target ${host} resolves to an address that is refused: ${refusal
          .split(address)
          .join('it')
          .replace(/\b\d{1,3}(?:\.\d{1,3}){3}\b/g, 'an IPv4 address')} ${advice}`,
        final: true,
      };
    }
  }
  return { addresses };
}

/**
 * HTTP(S) agents whose look-up answers only `addresses` (those checkTarget checked), whatever DNS
 * says by then. The URL keeps its host name, so the Host header, TLS SNI and the certificate check
 * are those of the name, not of the address.
 */
export function pinnedAgents(addresses: string[]): { httpAgent: http.Agent; httpsAgent: https.Agent } {
  const all: LookupAddress[] = addresses.map((address) => ({ address, family: isIP(address) }));
  const lookup = ((
    _hostname: string,
    options: { all?: boolean; family?: number | string },
    callback: (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void,
  ) => {
    const family = options.family === 'IPv4' ? 4 : options.family === 'IPv6' ? 6 : Number(options.family ?? 0);
    const usable = family === 4 || family === 6 ? all.filter((entry) => entry.family === family) : all;
    if (usable.length === 0) return callback(Object.assign(new Error(`no checked address of family ${family}`), { code: 'ENOTFOUND' }), '', 0);
    if (options.all) return callback(null, usable);
    callback(null, usable[0].address, usable[0].family);
  }) as unknown as LookupFunction;
  return { httpAgent: new http.Agent({ lookup }), httpsAgent: new https.Agent({ lookup }) };
}

const resolveAll: ResolveHost = async (host) => (await lookup(host, { all: true })).map((entry) => entry.address);
