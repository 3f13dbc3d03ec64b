import http from 'node:http';
import type { AddressInfo } from 'node:net';
import tls from 'node:tls';
import axios from 'axios';
import { checkTarget, pinnedAgents } from './target-policy';

const refusalOf = async (url: string, allowPrivate: boolean, resolve?: (host: string) => Promise<string[]>) => {
  const check = await checkTarget(url, allowPrivate, resolve);
  return 'refusal' in check ? check.refusal : null;
};

async function listening<S extends http.Server | tls.Server>(server: S, host = '127.0.0.1'): Promise<S & { port: number; stop(): Promise<void> }> {
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  return Object.assign(server, {
    port: (server.address() as AddressInfo).port,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  });
}

// The address rules themselves: libs/domain, webhook-target-address.spec.ts.
describe('webhook target policy', () => {
  it.each([
    ['a loopback literal', 'http://127.0.0.1:8080/hook', /127\.0\.0\.1.*\(loopback\)/],
    ['a bracketed IPv6 loopback', 'http://[::1]/hook', /\(loopback\)/],
    ['a NAT64 literal', 'http://[64:ff9b::7f00:1]/hook', /\(rfc6052\)/],
    [
      'a name resolving to a private address',
      'https://intranet.example.com/hook',
      /^the target intranet\.example\.com resolves to an address that is refused: .*\(private\)/,
    ],
    ['another scheme', 'ftp://shop.example.com/x', /only http and https/],
    ['no URL at all', 'shop', /not a URL/],
  ])('when the target is %s, then it is refused with the reason', async (_name, url, reason) => {
    expect(await refusalOf(url, false, async () => ['10.0.0.5'])).toMatch(reason);
  });

  it('when a name resolves to a private address, then the refusal, which the integrator reads in its import, does not show the address', async () => {
    const refusal = await refusalOf('https://db.internal.example/hook', false, async () => ['10.3.0.7']);

    expect(refusal).toMatch(/db\.internal\.example/);
    expect(refusal).not.toContain('10.3.0.7');
  });

  it.each([
    ['the name does not exist (ENOTFOUND)', 'ENOTFOUND', true],
    ['the name has no address (ENODATA)', 'ENODATA', true],
    ['the DNS server failed for now (EAI_AGAIN)', 'EAI_AGAIN', false],
    ['the look-up timed out (ETIMEOUT)', 'ETIMEOUT', false],
  ])('when %s, then the refusal is final: %s', async (_case, code, final) => {
    const failing = async () => Promise.reject(Object.assign(new Error(`getaddrinfo ${code} shop.example.com`), { code }));
    expect(await checkTarget('https://shop.example.com/hook', false, failing)).toEqual({ refusal: expect.stringMatching(/does not resolve/), final });
  });

  it('when one of the addresses of a name is private, then the target is refused', async () => {
    const refusal = await refusalOf('https://shop.example.com/hook', false, async () => ['93.184.216.34', '::ffff:169.254.169.254']);
    expect(refusal).toMatch(/IPv4-mapped.*linkLocal/);
    expect(refusal).not.toContain('169.254');
  });

  it('when the target is public, then the addresses it checked are the ones to connect to; when private targets are allowed, then it still resolves once', async () => {
    expect(await checkTarget('https://shop.example.com/hook', false, async () => ['93.184.216.34', '2606:4700::1111'])).toEqual({
      addresses: ['93.184.216.34', '2606:4700::1111'],
    });
    expect(await checkTarget('http://127.0.0.1:9/hook', true)).toEqual({ addresses: ['127.0.0.1'] });
    expect(await checkTarget('http://receiver.test/hook', true, async () => ['127.0.0.1'])).toEqual({ addresses: ['127.0.0.1'] });
  });

  it('when a request goes through the pinned agents, then it reaches the checked address with the host name in Host, whatever the name resolves to', async () => {
    const hosts: (string | undefined)[] = [];
    const server = await listening(http.createServer((req, res) => res.end(hosts.push(req.headers.host) && 'pinned')));
    try {
      // The name does not resolve at all: only the pinned look-up can reach the server.
      const response = await axios.get(`http://rebinding.invalid:${server.port}/hook`, { ...pinnedAgents(['127.0.0.1']), proxy: false, timeout: 5000 });
      expect(response.data).toBe('pinned');
      expect(hosts).toEqual([`rebinding.invalid:${server.port}`]);
    } finally {
      await server.stop();
    }
  });

  it('when an https request goes through the pinned agents, then TLS asks for the host name (SNI), not for the address', async () => {
    const names: string[] = [];
    // No certificate at all: the handshake ends after the client named the host it wants.
    const server = await listening(
      tls.createServer({ SNICallback: (name, done) => done(new Error(`no certificate for ${names.push(name) && name}`), undefined) }),
    );
    try {
      const failure = await axios
        .get(`https://shop.invalid:${server.port}/hook`, { ...pinnedAgents(['127.0.0.1']), proxy: false, timeout: 5000 })
        .catch((error: unknown) => error);
      expect(axios.isAxiosError(failure)).toBe(true);
      expect(names).toEqual(['shop.invalid']);
    } finally {
      await server.stop();
    }
  });

  it('when the connection asks for a family the checked addresses lack, then it fails instead of resolving again', async () => {
    const failure = await axios
      .get('http://v6only.invalid:9/hook', { ...pinnedAgents(['::1']), proxy: false, family: 4, timeout: 5000 })
      .catch((error: unknown) => error);
    expect(axios.isAxiosError(failure) && failure.code).toBe('ENOTFOUND');
  });
});
