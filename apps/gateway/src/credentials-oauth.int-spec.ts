import request from 'supertest';
import type { InstallTokens } from '@ecomm-sync/testing';
import { credentialsWorld, PORTAL_A, v2, type CredentialsWorld } from './credentials-fixture';

/**
 * Issue 7: OAuth tokens over HTTP: refresh in both modes, expiry, the limit of access tokens, and uninstalling.
 */
describe('credentials and tenant isolation', () => {
  const w = credentialsWorld('test-credentials-oauth');
  let { app, database, tenantCredentials } = {} as CredentialsWorld;
  beforeAll(() => ({ app, database, tenantCredentials } = w));
  const { c, gateway, admin } = w;

  describe('OAuth tokens', () => {
    const token = (form: Record<string, string>, on = app) => request(on).post('/oauth/v1/token').type('form').send(form);

    const install = (): Promise<InstallTokens> => tenantCredentials.install(PORTAL_A, c.appX.appId);

    const refresh = (refreshToken: string, on = app) =>
      token({ grant_type: 'refresh_token', client_id: c.appX.clientId, client_secret: c.appX.clientSecret, refresh_token: refreshToken }, on);

    it('refreshes with the client credentials: a new access token, and the same refresh token, which refreshes again (as the vendor)', async () => {
      const first = await install();
      const refreshed = await refresh(first.refreshToken).expect(200);
      expect(refreshed.body).toEqual({
        access_token: expect.stringMatching(/^oat-/),
        refresh_token: first.refreshToken,
        expires_in: 1800,
        token_type: 'bearer',
      });
      expect(refreshed.headers['cache-control']).toBe('no-store');
      const again = await refresh(first.refreshToken).expect(200);
      expect(again.body.access_token).not.toBe(refreshed.body.access_token);
      for (const accessToken of [first.accessToken, refreshed.body.access_token, again.body.access_token])
        await request(app).get(`${v2}/sync/errors`).set('authorization', `Bearer ${accessToken}`).expect(200);
    });

    it('when an operator revokes a lasting refresh token, then it no longer refreshes, and the access tokens it gave still work until they expire', async () => {
      const first = await install();
      const refreshed = await refresh(first.refreshToken).expect(200);
      const { credentialId } = (await database.repositories.credentials.resolve(first.refreshToken))!;
      await admin('delete', `/admin/v1/credentials/${credentialId}`).expect(204);
      expect((await refresh(first.refreshToken).expect(400)).body).toMatchObject({ error: 'invalid_grant' });
      await request(app).get(`${v2}/sync/errors`).set('authorization', `Bearer ${refreshed.body.access_token}`).expect(200);
    });

    it('with rotation on, refreshes with the client credentials: a new pair, and once that pair refreshed, the first refresh token is refused', async () => {
      const rotating = await gateway({ oauth: { rotateRefreshTokens: true } });
      const first = await install();
      const refreshed = await refresh(first.refreshToken, rotating).expect(200);
      expect(refreshed.body).toEqual({
        access_token: expect.stringMatching(/^oat-/),
        refresh_token: expect.stringMatching(/^ort-/),
        expires_in: 1800,
        token_type: 'bearer',
      });
      expect(refreshed.body.refresh_token).not.toBe(first.refreshToken);
      await request(rotating).get(`${v2}/sync/errors`).set('authorization', `Bearer ${refreshed.body.access_token}`).expect(200);
      // The new pair reached its client (it refreshed with it): the spent token is no lost answer's retry (oauth-refresh-reuse.int-spec.ts).
      await refresh(refreshed.body.refresh_token, rotating).expect(200);
      const again = await refresh(first.refreshToken, rotating).expect(400);
      expect(again.body).toMatchObject({ status: 'error', error: 'invalid_grant' });
    });

    it.each([
      ['a wrong client secret', 401, 'invalid_client', () => ({ client_secret: 'secret-wrong' })],
      ['an unknown client id', 401, 'invalid_client', () => ({ client_id: 'client-unknown' })],
      ["another application's client", 400, 'invalid_grant', () => ({ client_id: c.appY.clientId, client_secret: c.appY.clientSecret })],
      ['an access token as refresh token', 400, 'invalid_grant', () => ({ refresh_token: c.tokensAX.accessToken })],
      ['another grant type', 400, 'unsupported_grant_type', () => ({ grant_type: 'password' })],
      ['no client id', 400, 'invalid_request', () => ({ client_id: '' })],
    ])('with %s answers %i %s', async (_name, status, code, overrides) => {
      const { refreshToken } = await install();
      const form = { grant_type: 'refresh_token', client_id: c.appX.clientId, client_secret: c.appX.clientSecret, refresh_token: refreshToken, ...overrides() };
      const response = await token(form).expect(status);
      expect(response.body).toMatchObject({ status: 'error', error: code, message: expect.any(String) });
    });

    it('answers 415 for a JSON body', async () => {
      await request(app).post('/oauth/v1/token').send({ grant_type: 'refresh_token' }).expect(415);
    });

    it('refuses an expired access token with 401 and says how to get a new one', async () => {
      const shortLived = await gateway({ oauth: { accessTokenTtlSeconds: 0 } });
      const { accessToken } = await tenantCredentials.on(shortLived).install(PORTAL_A, c.appX.appId);
      const response = await request(shortLived).get(`${v2}/sync/errors`).set('authorization', `Bearer ${accessToken}`).expect(401);
      expect(response.body.message).toMatch(/expired.*\/oauth\/v1\/token/);
    });

    it('when an install refreshes beyond the access tokens it may hold, then its oldest answer 401 and the newest work', async () => {
      const capped = await gateway({ oauth: { accessTokensPerInstall: 2 } });
      const first = await install();
      // Issued long ago, so that it is the oldest whatever millisecond the refreshes below fall in.
      const { credentialId } = (await database.repositories.credentials.resolve(first.accessToken))!;
      await database.connection.collection('credentials').updateOne({ credentialId }, { $set: { createdAt: 1 } });
      const second = await refresh(first.refreshToken, capped).expect(200);
      const third = await refresh(first.refreshToken, capped).expect(200);

      await request(capped).get(`${v2}/sync/errors`).set('authorization', `Bearer ${first.accessToken}`).expect(401);
      for (const accessToken of [second.body.access_token, third.body.access_token])
        await request(capped).get(`${v2}/sync/errors`).set('authorization', `Bearer ${accessToken}`).expect(200);
      expect(await database.repositories.credentials.list({ portalId: PORTAL_A, appId: c.appX.appId, kinds: ['access-token'] })).toHaveLength(2);
      c.tokensAX = await install(); // the other tests go on with a token the cap did not take
    });

    it('when the install is removed while a refresh stores its access token, then the refresh is refused and that token does not work', async () => {
      const { refreshToken } = await install();
      const { credentials, accounts } = database.repositories;
      const issue = credentials.issue.bind(credentials);
      const stored: string[] = [];
      // An uninstall's first step, between the refresh's insert and its reads; its delete of the tokens has not come yet.
      const spy = jest.spyOn(credentials, 'issue').mockImplementationOnce(async (...args) => {
        const issued = await issue(...args);
        stored.push(issued.secret);
        await accounts.removeInstall(PORTAL_A, c.appX.appId);
        return issued;
      });
      try {
        const refused = await refresh(refreshToken).expect(400);
        expect(refused.body).toMatchObject({ error: 'invalid_grant', message: expect.stringContaining('no longer installed') });
      } finally {
        spy.mockRestore();
      }
      expect(stored).toHaveLength(1);
      await request(app).get(`${v2}/sync/errors`).set('authorization', `Bearer ${stored[0]}`).expect(401);
      await admin('delete', `/admin/v1/installs/${PORTAL_A}/${c.appX.appId}`).expect(204); // the rest of the uninstall
      c.tokensAX = await install(); // the other tests go on with a fresh install
    });

    it("uninstalling revokes every token of the install at once, uninstalls the tenant's ecommerce setup (its stores, workflows) and removes its alerts", async () => {
      const tokens = await install();
      const tenant = { portalId: PORTAL_A, appId: c.appX.appId };
      const { ecommerceInstalls, stores, alertRules, alertDestinations } = database.repositories;
      await ecommerceInstalls.markInstalled(tenant, Date.now());
      await alertRules.ensureDefaults(tenant, Date.now());
      await alertDestinations.add(
        tenant,
        { kind: 'email', target: 'ops@shop.example', shownTarget: 'ops@shop.example', label: '', sealedSecret: null },
        Date.now(),
      );
      expect((await stores.list(tenant)).map((store) => store.id)).toContain('web');

      await admin('delete', `/admin/v1/installs/${PORTAL_A}/${c.appX.appId}`).expect(204);

      expect(await stores.list(tenant)).toEqual([]);
      expect(await ecommerceInstalls.find(tenant)).toMatchObject({ installCompleted: false, workflowsEnabled: false });
      expect(await alertRules.list(tenant)).toEqual([]);
      expect(await alertDestinations.list(tenant)).toEqual([]);
      await request(app).get(`${v2}/sync/errors`).set('authorization', `Bearer ${tokens.accessToken}`).expect(401);
      await request(app).get(`${v2}/sync/errors`).set('authorization', `Bearer ${c.tokensAX.accessToken}`).expect(401);
      await token({ grant_type: 'refresh_token', client_id: c.appX.clientId, client_secret: c.appX.clientSecret, refresh_token: tokens.refreshToken }).expect(
        400,
      );
      await admin('delete', `/admin/v1/installs/${PORTAL_A}/${c.appX.appId}`).expect(404);
      c.tokensAX = await install(); // the other tests go on with a fresh install
    });
  });
});
