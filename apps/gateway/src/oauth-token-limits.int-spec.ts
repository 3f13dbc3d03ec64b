import type { Express } from 'express';
import request from 'supertest';
import { gatewayCredentials, waitFor, type AppCredential, type GatewayCredentialBuilder, type InstallTokens } from '@ecomm-sync/testing';
import type { GatewayDeps } from './app';
import { startGatewayFixture, type GatewayFixture } from './gateway-fixture';

const FIRST_PORTAL = 8171;
const v2 = '/extensions/ecomm/v2';

/**
 * What holds an install's OAuth tokens in bounds (decision 12): the access tokens it keeps
 * (OAUTH_ACCESS_TOKENS_PER_INSTALL), told to every replica when some go (decision 13, addendum of
 * 2026-12-06, later), and the refreshes it may make (OAUTH_REFRESH_LIMIT per OAUTH_REFRESH_WINDOW_S).
 */
describe("an install's OAuth tokens in bounds", () => {
  let fixture: GatewayFixture;
  let credentials: GatewayCredentialBuilder;
  let connector: AppCredential;
  let other: AppCredential;
  let portalId = FIRST_PORTAL;

  beforeAll(async () => {
    fixture = await startGatewayFixture('test-oauth-limits');
    credentials = gatewayCredentials(fixture.app, fixture.database.repositories);
    const developer = await credentials.developer('Limits');
    connector = await credentials.app(developer.developerId, 'Connector L');
    other = await credentials.app(developer.developerId, 'Connector M');
  });

  afterAll(() => fixture.close());

  /** A portal of the test's own. */
  const aPortal = async (): Promise<number> => {
    portalId++;
    await credentials.portal(portalId, `pk-oauth-limits-${portalId}`);
    return portalId;
  };
  /** A portal of the test's own with both applications installed. */
  const aPortalWithBoth = async (): Promise<{ portalId: number; mine: InstallTokens; bystander: InstallTokens }> => {
    const id = await aPortal();
    return { portalId: id, mine: await credentials.install(id, connector.appId), bystander: await credentials.install(id, other.appId) };
  };
  const gateway = (overrides: Partial<GatewayDeps>) => fixture.gateway(overrides);
  const refresh = (on: Express, app: AppCredential, refreshToken: string, overrides: Record<string, string> = {}) =>
    request(on)
      .post('/oauth/v1/token')
      .type('form')
      .send({ grant_type: 'refresh_token', client_id: app.clientId, client_secret: app.clientSecret, refresh_token: refreshToken, ...overrides });
  const reads = (on: Express, accessToken: string) => request(on).get(`${v2}/sync/errors`).set('authorization', `Bearer ${accessToken}`);

  it("when a refresh on one replica deletes an install's oldest access token, then another replica that cached it refuses it at once and keeps other installs' tokens", async () => {
    // Two replicas that would remember a token for a minute: only the broadcast makes one forget it.
    const capped = await gateway({ oauth: { accessTokensPerInstall: 2 }, lookupCacheMs: 60_000 });
    const cached = await gateway({ lookupCacheMs: 60_000 });
    const { portalId: shared, mine, bystander } = await aPortalWithBoth();
    await credentials.install(shared, connector.appId); // a second access token: the install holds its limit
    for (const { accessToken } of [mine, bystander]) await reads(cached, accessToken).expect(200);
    const { credentials: stored } = fixture.database.repositories;
    const { credentialId } = (await stored.resolve(mine.accessToken))!;
    // Issued long ago, so that it is the oldest whatever millisecond the calls above fell in.
    await fixture.database.connection.collection('credentials').updateOne({ credentialId }, { $set: { createdAt: 1 } });

    await refresh(capped, connector, mine.refreshToken).expect(200);

    await waitFor(async () => (await reads(cached, mine.accessToken)).status === 401, { message: 'the other replica to drop the deleted token' });
    // The bystander (another application in the same portal) loses its token behind every replica's back:
    // the replica still has it, as no broadcast named its install.
    await stored.revoke((await stored.resolve(bystander.accessToken))!.credentialId);
    await reads(cached, bystander.accessToken).expect(200);
  });

  it('when an install refreshes beyond its limit, then the next answers 429 with Retry-After; refreshes refused before the install is known spend none, other installs go on', async () => {
    const limited = await gateway({ oauth: { refreshesPerInstall: 2, refreshWindowSeconds: 60 } });
    const { portalId: shared, mine, bystander } = await aPortalWithBoth();
    const { refreshToken: elsewhere } = await credentials.install(await aPortal(), connector.appId);
    // Somebody who knows only the client_id, or a token that is no more: refused, and the install's refreshes are untouched.
    for (let i = 0; i < 3; i++) await refresh(limited, connector, mine.refreshToken, { client_secret: 'secret-wrong' }).expect(401);
    await refresh(limited, connector, 'ort-unknown').expect(400);

    await refresh(limited, connector, mine.refreshToken).expect(200);
    await refresh(limited, connector, mine.refreshToken).expect(200);
    const accessTokens = () => fixture.database.repositories.credentials.list({ portalId: shared, appId: connector.appId, kinds: ['access-token'] });
    const held = (await accessTokens()).length;
    const refused = await refresh(limited, connector, mine.refreshToken).expect(429);

    expect(await accessTokens()).toHaveLength(held); // refused before anything is stored
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(60);
    expect(refused.body).toMatchObject({ status: 'error', error: 'temporarily_unavailable', message: expect.stringMatching(/may refresh 2 times per 60 s/) });
    // The same application in another portal, and another application in this one, count apart.
    await refresh(limited, connector, elsewhere).expect(200);
    await refresh(limited, other, bystander.refreshToken).expect(200);
  });
});
