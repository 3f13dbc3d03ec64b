import { isPrivateAddress, refusalOf } from './target-policy';

describe('webhook target policy', () => {
  it.each(['127.0.0.1', '10.1.2.3', '172.16.0.9', '172.31.255.255', '192.168.1.1', '169.254.169.254', '0.0.0.0', '100.64.0.1', '::1', '::', 'fd00::1', 'fe80::1', '::ffff:127.0.0.1', 'not-an-ip'])(
    '%s is private',
    (address) => expect(isPrivateAddress(address)).toBe(true),
  );

  it.each(['93.184.216.34', '172.32.0.1', '8.8.8.8', '2606:4700::1111', '::ffff:8.8.8.8'])('%s is public', (address) => expect(isPrivateAddress(address)).toBe(false));

  it.each([
    ['a loopback literal', 'http://127.0.0.1:8080/hook', /private or loopback/],
    ['a bracketed IPv6 loopback', 'http://[::1]/hook', /private or loopback/],
    ['a name resolving to a private address', 'https://intranet.example.com/hook', /resolves to 10\.0\.0\.5/],
    ['another scheme', 'ftp://shop.example.com/x', /only http and https/],
    ['no URL at all', 'shop', /not a URL/],
  ])('refuses %s', async (_name, url, reason) => {
    expect(await refusalOf(url, false, async () => ['10.0.0.5'])).toMatch(reason);
  });

  it('calls a public target, and anything when private targets are allowed', async () => {
    expect(await refusalOf('https://shop.example.com/hook', false, async () => ['93.184.216.34'])).toBeNull();
    expect(await refusalOf('http://127.0.0.1:9/hook', true)).toBeNull();
  });
});
