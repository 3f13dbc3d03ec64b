import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';

const PRIVATE = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.168.0.0', 16],
  ['224.0.0.0', 4],
] as const) {
  PRIVATE.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
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

/**
 * Why a webhook target is refused, or null when it may be called: only http(s), and (unless
 * allowed for development) no host that resolves to a private address, so a setting cannot make
 * the service call into its own network.
 */
export async function refusalOf(url: string, allowPrivate: boolean, resolve: (host: string) => Promise<string[]> = resolveAll): Promise<string | null> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return `"${url}" is not a URL`;
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return `only http and https targets are called, not ${parsed.protocol}`;
  if (allowPrivate) return null;
  const host = parsed.hostname.replace(/^\[|\]$/g, '');
  let addresses: string[];
  try {
    addresses = isIP(host) ? [host] : await resolve(host);
  } catch (error) {
    return `the host ${host} does not resolve (${error instanceof Error ? error.message : String(error)})`;
  }
  const inside = addresses.find(isPrivateAddress);
  return inside ? `the target ${host} resolves to ${inside}, a private or loopback address (set WEBHOOK_ALLOW_PRIVATE_TARGETS=true only for development)` : null;
}

const resolveAll = async (host: string) => (await lookup(host, { all: true })).map((entry) => entry.address);
