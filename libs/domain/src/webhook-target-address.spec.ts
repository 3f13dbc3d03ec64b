import { webhookAddressRefusal } from './webhook-target-address';

describe('webhookAddressRefusal', () => {
  it.each([
    ['IPv4 loopback', '127.0.0.1', 'loopback'],
    ['IPv4 loopback, anywhere in 127/8', '127.255.0.9', 'loopback'],
    ['private 10/8', '10.1.2.3', 'private'],
    ['private 172.16/12, first', '172.16.0.9', 'private'],
    ['private 172.16/12, last', '172.31.255.255', 'private'],
    ['private 192.168/16', '192.168.1.1', 'private'],
    ['link-local (cloud metadata)', '169.254.169.254', 'linkLocal'],
    ['this network 0/8', '0.0.0.0', 'unspecified'],
    ['carrier-grade NAT', '100.64.0.1', 'carrierGradeNat'],
    ['benchmarking 198.18.0.0/15, first', '198.18.0.1', 'reserved'],
    ['benchmarking 198.18.0.0/15, last', '198.19.255.254', 'reserved'],
    ['reserved 240.0.0.0/4', '240.0.0.1', 'reserved'],
    ['broadcast', '255.255.255.255', 'broadcast'],
    ['IPv4 multicast', '224.0.0.251', 'multicast'],
    ['documentation TEST-NET-1', '192.0.2.10', 'reserved'],
    ['IPv6 loopback', '::1', 'loopback'],
    ['IPv6 unspecified', '::', 'unspecified'],
    ['unique local', 'fd00::1', 'uniqueLocal'],
    ['IPv6 link-local', 'fe80::1', 'linkLocal'],
    ['IPv6 link-local with a zone', 'fe80::1%eth0', 'linkLocal'],
    ['site-local fec0::/10', 'fec0::1', 'deprecatedSiteLocal'],
    ['IPv6 multicast', 'ff02::1', 'multicast'],
    ['NAT64 64:ff9b::/96 of a private address', '64:ff9b::a00:1', 'rfc6052'],
    ['NAT64 64:ff9b::/96 of a public address', '64:ff9b::808:808', 'rfc6052'],
    ['6to4 2002::/16', '2002:a00:1::1', '6to4'],
    ['Teredo 2001::/32', '2001:0:4136:e378:8000:63bf:3fff:fdd2', 'teredo'],
    ['IPv6 documentation', '2001:db8::1', 'reserved'],
    ['IPv4-translated ::ffff:0:0:0/96', '::ffff:0:7f00:1', 'rfc6145'],
    ['IPv6 discard-only', '100::1', 'discard'],
    ['IETF protocol assignments 192.0.0.0/24', '192.0.0.1', 'reserved'],
    ['6to4 relay anycast', '192.88.99.1', 'reserved'],
    ['IPv4-mapped loopback', '::ffff:127.0.0.1', 'loopback'],
    ['IPv4-mapped loopback in hex', '::ffff:7f00:1', 'loopback'],
    ['IPv4-mapped benchmarking', '::ffff:198.18.0.1', 'reserved'],
    ['IPv4-compatible loopback', '::127.0.0.1', 'IPv4-compatible'],
    ['IPv4-compatible private', '::a00:1', 'IPv4-compatible'],
    ['IPv4-compatible public', '::8.8.8.8', 'IPv4-compatible'],
    ['IPv4-compatible in hex', '::808:808', 'IPv4-compatible'],
    ['IPv4-compatible written out', '0:0:0:0:0:0:10.0.0.1', 'IPv4-compatible'],
    ['NAT64 with a dotted tail', '64:ff9b::127.0.0.1', 'rfc6052'],
    ['not an address', 'not-an-ip', 'not an IP address'],
    ['a host name', 'localhost', 'not an IP address'],
  ])('when the address is %s (%s), then a webhook to it is refused naming %s', (_case, address, reason) => {
    expect(webhookAddressRefusal(address)).toContain(reason);
  });

  it.each([
    ['a public IPv4 address', '93.184.216.34'],
    ['just past 172.16/12', '172.32.0.1'],
    ['just past benchmarking 198.18.0.0/15', '198.20.0.1'],
    ['a public address below multicast', '223.255.255.254'],
    ['a public IPv6 address', '2606:4700::1111'],
    ['just past IPv6 documentation', '2001:db9::1'],
    ['IPv4-mapped public', '::ffff:8.8.8.8'],
    ['IPv4-mapped public in hex', '::ffff:808:808'],
  ])('when the address is %s (%s), then a webhook may go there', (_case, address) => {
    expect(webhookAddressRefusal(address)).toBeNull();
  });
});
