import type { Request } from 'express';
import type { Credential } from '@ecomm-sync/data-access';
import { TtlCache } from '@ecomm-sync/domain';
import { FakeCredentialRepository, recordingLogger } from '@ecomm-sync/testing';
import { CredentialResolver } from './credential-resolver';

const NOW = 1_750_000_000_000;
const bearer = (token: string) => ({ query: {}, header: (name: string) => (name === 'authorization' ? `Bearer ${token}` : undefined) }) as unknown as Request;
const keyed = (key: string) => ({ query: { hapikey: key }, header: () => undefined }) as unknown as Request;

/** The first use of an access token (decision 12, addendum of 2026-12-05); the rest of authentication: credentials*.int-spec.ts. */
describe('CredentialResolver', () => {
  let credentials: FakeCredentialRepository;
  let log: ReturnType<typeof recordingLogger>;
  let resolver: CredentialResolver;
  let cache: TtlCache<Credential | null>;
  let access: { secret: string; credential: Credential };

  beforeEach(async () => {
    credentials = new FakeCredentialRepository();
    log = recordingLogger();
    cache = new TtlCache<Credential | null>(60_000);
    resolver = new CredentialResolver(credentials, cache, () => NOW, log.logger);
    access = await credentials.issue('access-token', { portalId: 1, appId: 'a', expiresAt: NOW + 60_000 }, NOW);
  });

  afterEach(() => jest.useRealTimers());

  it('when an access token is looked up first by several requests at once, then its first use is recorded once', async () => {
    const mark = jest.spyOn(credentials, 'markAccessTokenUsed');

    const principals = await Promise.all([1, 2, 3].map(() => resolver.identify(bearer(access.secret))));

    expect(principals).toEqual(Array(3).fill({ kind: 'access-token', credentialId: access.credential.credentialId, portalId: 1, appId: 'a' }));
    expect(mark).toHaveBeenCalledTimes(1);
    expect(await credentials.resolve(access.secret)).toMatchObject({ usedAt: NOW });
  });

  it('when the cache answers, or the token was marked before, then nothing is written', async () => {
    await resolver.identify(bearer(access.secret));
    const mark = jest.spyOn(credentials, 'markAccessTokenUsed');

    await resolver.identify(bearer(access.secret));
    cache.clear(); // as lookups.changed empties it
    await resolver.identify(bearer(access.secret));

    expect(mark).not.toHaveBeenCalled();
  });

  it('when a portal key or a private-app token is looked up, then nothing is written', async () => {
    const key = await credentials.issue('portal-key', { portalId: 1 }, NOW);
    const token = await credentials.issue('private-app-token', { portalId: 1, name: 'erp' }, NOW);
    const mark = jest.spyOn(credentials, 'markAccessTokenUsed');

    await resolver.identify(keyed(key.secret));
    await resolver.identify(bearer(token.secret));

    expect(mark).not.toHaveBeenCalled();
  });

  it('when the mark cannot be written, then the request is authenticated all the same and a warning says so', async () => {
    jest.spyOn(credentials, 'markAccessTokenUsed').mockRejectedValueOnce(new Error('database unreachable'));

    expect(await resolver.identify(bearer(access.secret))).toMatchObject({ kind: 'access-token' });

    expect(log.entries).toContainEqual(
      expect.objectContaining({ level: 'warn', message: "an access token's first use could not be recorded", error: 'Error: database unreachable' }),
    );
  });

  it('when the mark hangs, then the request goes on after a quarter of a second', async () => {
    jest.useFakeTimers({ now: NOW });
    jest.spyOn(credentials, 'markAccessTokenUsed').mockReturnValueOnce(new Promise(() => undefined));

    const identified = resolver.identify(bearer(access.secret));
    await jest.advanceTimersByTimeAsync(250);

    expect(await identified).toMatchObject({ kind: 'access-token' });
    expect(log.entries).toContainEqual(expect.objectContaining({ level: 'warn', error: expect.stringMatching(/first use within 250 ms/) }));
  });
});
