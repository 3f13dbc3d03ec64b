import { ConfigError, loadConfig } from '@ecomm-sync/runtime';
import { gatewayConfigSchema } from './config';

describe("the gateway's configuration", () => {
  const required = { ADMIN_TOKEN: 'admin', SECRETS_KEY: 'a-key-of-sixteen-or-more' };

  it.each([
    ['0', 0],
    ['2', 2],
    [undefined, 100],
  ])('when OAUTH_ACCESS_TOKENS_PER_INSTALL is %p, then the configuration reads %p (0: no limit)', (value, kept) => {
    expect(loadConfig(gatewayConfigSchema, { ...required, OAUTH_ACCESS_TOKENS_PER_INSTALL: value }).OAUTH_ACCESS_TOKENS_PER_INSTALL).toBe(kept);
  });

  it('when OAUTH_ACCESS_TOKENS_PER_INSTALL is 1, then the gateway does not start, and the message says what is allowed', () => {
    const load = () => loadConfig(gatewayConfigSchema, { ...required, OAUTH_ACCESS_TOKENS_PER_INSTALL: '1' });
    expect(load).toThrow(ConfigError);
    expect(load).toThrow(/OAUTH_ACCESS_TOKENS_PER_INSTALL must be 0 \(off\) or at least 2, got "1"/);
  });
});
