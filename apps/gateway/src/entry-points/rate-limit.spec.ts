import type { Principal } from './credential-resolver';
import { fixedWindows, rateLimitOf } from './rate-limit';

describe('rateLimitOf', () => {
  it.each<[string, Principal, string]>([
    ['when a portal key calls, then it counts by itself', { kind: 'portal-key', credentialId: 'cred_1', portalId: 7 }, 'cred_1'],
    ['when a private-app token calls, then it counts by itself', { kind: 'private-app-token', credentialId: 'cred_2', portalId: 7 }, 'cred_2'],
    ['when a developer key calls, then it counts by itself', { kind: 'developer-key', credentialId: 'cred_3', developerId: 9 }, 'cred_3'],
    [
      'when an access token calls, then it counts with every access token of its install',
      { kind: 'access-token', credentialId: 'cred_4', portalId: 7, appId: 'app-1' },
      'install:7:app-1',
    ],
  ])('%s', (_name, principal, key) => {
    expect(rateLimitOf(principal).key).toBe(key);
  });

  it('when two access tokens of one install call, then they share one count, apart from another install', () => {
    const token = (credentialId: string, portalId: number): Principal => ({ kind: 'access-token', credentialId, portalId, appId: 'app-1' });
    expect(rateLimitOf(token('cred_a', 7)).key).toBe(rateLimitOf(token('cred_b', 7)).key);
    expect(rateLimitOf(token('cred_a', 7)).key).not.toBe(rateLimitOf(token('cred_c', 8)).key);
  });
});

describe('fixedWindows', () => {
  it('when keys are counted, then each counts apart and Retry-After is within the window', async () => {
    const windows = fixedWindows(60_000);
    await windows.count('install:7:app-1');
    const second = await windows.count('install:7:app-1');
    const other = await windows.count('install:8:app-1');

    expect(second.hits).toBe(2);
    expect(other.hits).toBe(1);
    expect(second.retryAfterSeconds).toBeGreaterThanOrEqual(1);
    expect(second.retryAfterSeconds).toBeLessThanOrEqual(60);
  });
});
