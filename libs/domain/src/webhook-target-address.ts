import ipaddr from 'ipaddr.js';

/**
 * Special-purpose ranges that ipaddr.js leaves under `unicast` but that a webhook must not reach:
 * IPv4-compatible `::a.b.c.d` (a deprecated form that some stacks still route to the IPv4 address).
 */
const IPV4_COMPATIBLE = ipaddr.parseCIDR('::/96');

/**
 * ipaddr.js reads any `::a.b.c.d` as IPv4-mapped (`::ffff:a.b.c.d`), and resolvers print
 * IPv4-compatible addresses that way: the dotted tail of an IPv6 address is rewritten as its two
 * hexadecimal groups first, so the bits are the ones the text says.
 */
function withHexTail(address: string): string {
  const tail = /^(.*:)(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})(%.*)?$/.exec(address);
  if (!tail) return address;
  const [, head, ...rest] = tail;
  const octets = rest.slice(0, 4).map(Number);
  if (octets.some((octet) => octet > 255)) return address;
  const hex = (high: number, low: number) => ((high << 8) | low).toString(16);
  return `${head}${hex(octets[0], octets[1])}:${hex(octets[2], octets[3])}${rest[4] ?? ''}`;
}

/**
 * Why a webhook may not be sent to `address`, or null when it is a public unicast address.
 * Allow-list, not block-list: any address that ipaddr.js files under a special-purpose range of
 * IANA's registries (loopback, private, link-local, carrier-grade NAT, benchmarking 198.18.0.0/15,
 * reserved 240.0.0.0/4, broadcast, multicast, documentation, NAT64 64:ff9b::/96, 6to4 2002::/16,
 * Teredo, site-local fec0::/10, ...) is refused, so a range we did not think of is closed too.
 * IPv4-mapped IPv6 (`::ffff:a.b.c.d`) is judged as the IPv4 address it carries.
 */
export function webhookAddressRefusal(address: string): string | null {
  let parsed: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    parsed = ipaddr.parse(withHexTail(address));
  } catch {
    return `"${address}" is not an IP address`;
  }
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) {
    const refusal = webhookAddressRefusal((parsed as ipaddr.IPv6).toIPv4Address().toString());
    return refusal && `${address} is IPv4-mapped: ${refusal}`;
  }
  const range = parsed.range();
  if (range !== 'unicast') return `${address} is in a special-purpose range (${range}), not a public unicast address`;
  if (parsed.kind() === 'ipv6' && parsed.match(IPV4_COMPATIBLE))
    return `${address} is an IPv4-compatible IPv6 address (::a.b.c.d), not a public unicast address`;
  return null;
}
