import http from 'node:http';
import type { AddressInfo } from 'node:net';
import axios from 'axios';
import { checkTarget, isPrivateAddress, pinnedAgents } from './target-policy';

const refusalOf = async (url: string, allowPrivate: boolean, resolve?: (host: string) => Promise<string[]>) => {
  const check = await checkTarget(url, allowPrivate, resolve);
  return 'refusal' in check ? check.refusal : null;
};

describe('webhook target policy', () => {
  it.each([
    '127.0.0.1', '10.1.2.3', '172.16.0.9', '172.31.255.255', '192.168.1.1', '169.254.169.254', '0.0.0.0', '100.64.0.1', '::1', '::', 'fd00::1', 'fe80::1',
    '::ffff:127.0.0.1', 'not-an-ip',
    // ranges the audit found open (issue 17, item 5)
    '64:ff9b::a00:1', '2002:a00:1::1', '::127.0.0.1', '::a00:1', 'fec0::1', 'ff02::1', '198.18.0.1', '198.19.255.254', '240.0.0.1', '255.255.255.255',
  ])('%s is private', (address) => expect(isPrivateAddress(address)).toBe(true));

  it.each(['93.184.216.34', '172.32.0.1', '8.8.8.8', '2606:4700::1111', '::ffff:8.8.8.8', '198.20.0.1', '2001:db9::1'])('%s is public', (address) =>
    expect(isPrivateAddress(address)).toBe(false),
  );

  it.each([
    ['a loopback literal', 'http://127.0.0.1:8080/hook', /private or loopback/],
    ['a bracketed IPv6 loopback', 'http://[::1]/hook', /private or loopback/],
    ['a NAT64 literal', 'http://[64:ff9b::7f00:1]/hook', /private or loopback/],
    ['a name resolving to a private address', 'https://intranet.example.com/hook', /resolves to 10\.0\.0\.5/],
    ['another scheme', 'ftp://shop.example.com/x', /only http and https/],
    ['no URL at all', 'shop', /not a URL/],
  ])('refuses %s', async (_name, url, reason) => {
    expect(await refusalOf(url, false, async () => ['10.0.0.5'])).toMatch(reason);
  });

  it('calls a public target at the address it checked, and anything when private targets are allowed', async () => {
    expect(await checkTarget('https://shop.example.com/hook', false, async () => ['93.184.216.34'])).toEqual({ address: '93.184.216.34' });
    expect(await checkTarget('http://127.0.0.1:9/hook', true)).toEqual({ address: null });
  });

  it('when a request goes through the pinned agents, then it reaches the checked address whatever the host name resolves to (no DNS rebinding)', async () => {
    const server = http.createServer((_req, res) => res.end('pinned'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      // The name does not resolve at all: only the pinned look-up can reach the server.
      const response = await axios.get(`http://rebinding.invalid:${port}/hook`, { ...pinnedAgents('127.0.0.1'), timeout: 5000 });
      expect(response.data).toBe('pinned');
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
