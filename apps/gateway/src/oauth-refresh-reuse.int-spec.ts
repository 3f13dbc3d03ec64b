import type { Express } from 'express';
import request from 'supertest';
import { gatewayCredentials, waitFor, type AppCredential, type GatewayCredentialBuilder } from '@ecomm-sync/testing';
import { startGatewayFixture, type GatewayFixture } from './gateway-fixture';

const FIRST_PORTAL = 8151;
const v2 = '/extensions/ecomm/v2';

/**
 * With rotation on (OAUTH_ROTATE_REFRESH_TOKENS), a refresh whose answer was lost (decision 12,
 * addendum of 2026-12-05): the spent refresh token, presented again within OAUTH_REFRESH_REUSE_S
 * while the pair it bought is unused, buys a new pair and the lost pair is revoked; otherwise it is
 * refused.
 */
describe('OAuth refresh tokens presented again', () => {
  let fixture: GatewayFixture;
  let app: Express;
  let credentials: GatewayCredentialBuilder;
  let application: AppCredential;
  let portalId = FIRST_PORTAL;

  const refresh = (refreshToken: string, on = app) =>
    request(on)
      .post('/oauth/v1/token')
      .type('form')
      .send({ grant_type: 'refresh_token', client_id: application.clientId, client_secret: application.clientSecret, refresh_token: refreshToken });
  const reads = (accessToken: string, on = app) => request(on).get(`${v2}/sync/errors`).set('authorization', `Bearer ${accessToken}`);

  beforeAll(async () => {
    fixture = await startGatewayFixture('test-refresh-reuse', () => ({ oauth: { rotateRefreshTokens: true } }));
    app = fixture.app;
    credentials = gatewayCredentials(app, fixture.database.repositories);
    const developer = await credentials.developer('Reuse');
    application = await credentials.app(developer.developerId, 'Connector R');
  });

  afterAll(() => fixture.close());

  /** Each test installs the application in a portal of its own. */
  const install = async (on = credentials as Pick<GatewayCredentialBuilder, 'portal' | 'install'>) => {
    portalId++;
    await credentials.portal(portalId, `pk-refresh-reuse-${portalId}`);
    return on.install(portalId, application.appId);
  };

  it('when the answer to a refresh was lost, then the same token presented again buys a new pair, and the lost pair is revoked', async () => {
    const { refreshToken } = await install();
    const lost = (await refresh(refreshToken).expect(200)).body;
    const retried = (await refresh(refreshToken).expect(200)).body;
    expect(retried.refresh_token).not.toBe(lost.refresh_token);
    await reads(retried.access_token).expect(200);
    await reads(lost.access_token).expect(401);
    await refresh(lost.refresh_token).expect(400);
    // The retried pair goes on as any other: it refreshes, and then the first token is refused for good.
    const next = (await refresh(retried.refresh_token).expect(200)).body;
    await reads(next.access_token).expect(200);
    expect((await refresh(refreshToken).expect(400)).body).toMatchObject({ error: 'invalid_grant' });
  });

  it("when a lost answer is answered again on one replica, then another replica drops that install's cached tokens and keeps other installs'", async () => {
    // A replica that would remember a token for a minute: only a broadcast makes it forget one.
    const cached = await fixture.gateway({ lookupCacheMs: 60_000 });
    const retrying = await install();
    // Bystanders: another application in the same portal, and the same application in another portal.
    const otherApplication = await credentials.app((await credentials.developer('Bystander')).developerId, 'Connector B');
    const bystanders = [await credentials.install(portalId, otherApplication.appId), await install()];
    for (const { accessToken } of [retrying, ...bystanders]) await reads(accessToken, cached).expect(200);
    // All go behind every replica's back: the broadcast alone decides which one the replica reads again.
    const { credentials: stored } = fixture.database.repositories;
    for (const { accessToken } of [retrying, ...bystanders]) await stored.revoke((await stored.resolve(accessToken))!.credentialId);

    await refresh(retrying.refreshToken).expect(200); // its answer is lost
    await refresh(retrying.refreshToken).expect(200);

    await waitFor(async () => (await reads(retrying.accessToken, cached)).status === 401, { message: "the replica to drop the install's tokens" });
    for (const { accessToken } of bystanders) await reads(accessToken, cached).expect(200);
  });

  it('when the pair a refresh bought was used to refresh, then presenting the spent token again is refused and revokes nothing', async () => {
    const { refreshToken } = await install();
    const received = (await refresh(refreshToken).expect(200)).body;
    const next = (await refresh(received.refresh_token).expect(200)).body;
    expect((await refresh(refreshToken).expect(400)).body).toMatchObject({ error: 'invalid_grant' });
    await reads(next.access_token).expect(200);
    await refresh(next.refresh_token).expect(200);
  });

  it('when two retries of a lost answer come at once, then one pair comes out of them that works', async () => {
    const { refreshToken } = await install();
    await refresh(refreshToken).expect(200);
    const answers = await Promise.all([refresh(refreshToken), refresh(refreshToken)]);
    // At once, one is refused; one after the other, the second replaces the first's pair. Either way one pair is left.
    const pairs = answers.filter((answer) => answer.status === 200).map((answer) => answer.body);
    expect(pairs.length).toBeGreaterThan(0);
    const working = await Promise.all(pairs.map(async (pair) => (await reads(pair.access_token)).status === 200));
    expect(working.filter(Boolean)).toHaveLength(1);
    const left = pairs[working.indexOf(true)];
    await refresh(left.refresh_token).expect(200);
  });

  it('when the pair a refresh bought was used to call the API, then presenting the spent token again is refused and the pair goes on', async () => {
    const { refreshToken } = await install();
    const received = (await refresh(refreshToken).expect(200)).body;
    await reads(received.access_token).expect(200);
    expect((await refresh(refreshToken).expect(400)).body).toMatchObject({ error: 'invalid_grant' });
    await reads(received.access_token).expect(200);
    await refresh(received.refresh_token).expect(200);
  });

  it('when the pair a refresh bought was revoked by the operator, then presenting the spent token again is refused', async () => {
    const { refreshToken } = await install();
    const received = (await refresh(refreshToken).expect(200)).body;
    const listed = await request(app).get(`/admin/v1/credentials?portalId=${portalId}`).set('authorization', 'Bearer admin').expect(200);
    for (const { credentialId } of listed.body.results as { credentialId: string }[]) {
      await request(app).delete(`/admin/v1/credentials/${credentialId}`).set('authorization', 'Bearer admin').expect(204);
    }
    expect((await refresh(refreshToken).expect(400)).body).toMatchObject({ error: 'invalid_grant' });
    await reads(received.access_token).expect(401);
  });

  it('when the grace is off (OAUTH_REFRESH_REUSE_S=0), then a spent refresh token is refused at once', async () => {
    const strict = await fixture.gateway({ oauth: { refreshReuseSeconds: 0 } });
    const { refreshToken } = await install(credentials.on(strict));
    const received = (await refresh(refreshToken, strict).expect(200)).body;
    expect((await refresh(refreshToken, strict).expect(400)).body).toMatchObject({ error: 'invalid_grant' });
    // Refused past its grace, the token is deleted; the pair it bought is untouched.
    expect(await fixture.database.repositories.credentials.resolve(refreshToken)).toBeNull();
    await reads(received.access_token, strict).expect(200);
  });

  it('when the application is uninstalled, then a spent refresh token goes with the rest', async () => {
    const { refreshToken } = await install();
    await refresh(refreshToken).expect(200);
    await credentials.uninstall(portalId, application.appId);
    expect(await fixture.database.repositories.credentials.resolve(refreshToken)).toBeNull();
    await refresh(refreshToken).expect(400);
  });
});
