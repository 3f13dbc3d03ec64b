import { lookup } from 'node:dns/promises';
import http from 'node:http';
import https from 'node:https';
import { BlockList, isIP, type LookupFunction } from 'node:net';

const PRIVATE = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
  ['255.255.255.255', 32],
] as const) {
  PRIVATE.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 96], // unspecified, loopback and IPv4-compatible ::a.b.c.d
  ['64:ff9b::', 96], // NAT64: reaches any IPv4 address through a translator
  ['2002::', 16], // 6to4: embeds an IPv4 address
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
] as const) {
  PRIVATE.addSubnet(network, prefix, 'ipv6');
}

/** Whether an address is loopback, private, link-local, multicast or unspecified (IPv4-mapped IPv6 included). */
export function isPrivateAddress(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return PRIVATE.check(mapped[1], 'ipv4');
  const family = isIP(address);
  if (family === 0) return true;
  return PRIVATE.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

/** Where a webhook may be sent: the address that was checked, to connect to (null when any is allowed). */
export type TargetCheck = { refusal: string } | { address: string | null };

/**
 * Whether a webhook target may be called: only http(s), and (unless allowed for development) no
 * host that resolves to a private address, so a setting cannot make the service call into its own
 * network. The address checked is the one to connect to (pinnedAgents): a host that resolves
 * differently at the next look-up (DNS rebinding) cannot move the request inside.
 */
export async function checkTarget(url: string, allowPrivate: boolean, resolve: (host: string) => Promise<string[]> = resolveAll): Promise<TargetCheck> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { refusal: `"${url}" is not a URL` };
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return { refusal: `only http and https targets are called, not ${parsed.protocol}` };
  if (allowPrivate) return { address: null };
  const host = parsed.hostname.replace(/^\[|\]$/g, '');
  let addresses: string[];
  try {
    addresses = isIP(host) ? [host] : await resolve(host);
  } catch (error) {
    return { refusal: `the host ${host} does not resolve (${error instanceof Error ? error.message : String(error)})` };
  }
  const inside = addresses.find(isPrivateAddress);
  if (inside) return { refusal: `the target ${host} resolves to ${inside}, a private or loopback address (set WEBHOOK_ALLOW_PRIVATE_TARGETS=true only for development)` };
  if (addresses.length === 0) return { refusal: `the host ${host} has no address` };
  return { address: addresses[0] };
}

/** HTTP(S) agents that connect every host to `address`, whatever DNS says by then. */
export function pinnedAgents(address: string): { httpAgent: http.Agent; httpsAgent: https.Agent } {
  const family = isIP(address);
  const pinned: LookupFunction = (_hostname, options, callback) => {
    if (options.all) (callback as unknown as (error: null, addresses: { address: string; family: number }[]) => void)(null, [{ address, family }]);
    else callback(null, address, family);
  };
  return { httpAgent: new http.Agent({ lookup: pinned }), httpsAgent: new https.Agent({ lookup: pinned }) };
}

const resolveAll = async (host: string) => (await lookup(host, { all: true })).map((entry) => entry.address);
