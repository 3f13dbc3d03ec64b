import type { Express } from 'express';
import request from 'supertest';
import { waitFor } from '@ecomm-sync/testing';
import { credentialsWorld, PORTAL_A, PORTAL_B, v1, v2, type CredentialsWorld } from './credentials-fixture';

/**
 * Issue 7: rotation and revocation (at once, in every replica), the admin API, and per-credential rate limits.
 */
describe('credentials and tenant isolation', () => {
  const w = credentialsWorld('test-credentials-admin');
  let { app, tenantCredentials } = {} as CredentialsWorld;
  beforeAll(() => ({ app, tenantCredentials } = w));
  const { c, gateway, admin } = w;

  describe('rotation and revocation', () => {
    it('a rotated portal key stops working at once, in this replica and in another one that cached it', async () => {
      const cached = await gateway({ lookupCacheMs: 60_000 });
      const other = await gateway({ lookupCacheMs: 60_000 });
      const status = (on: Express, key: string) => request(on).get(`${v1}/sync-status/CONTACT/c1?hapikey=${key}`);
      await status(cached, c.portalKeyA).expect(200);
      await status(other, c.portalKeyA).expect(200);
      const rotated = await admin('post', `/admin/v1/portals/${PORTAL_A}/api-key`, undefined, cached).expect(201);
      await status(cached, c.portalKeyA).expect(401);
      await waitFor(async () => (await status(other, c.portalKeyA)).status === 401, { timeoutMs: 5000, message: 'the other replica to drop the rotated key' });
      c.portalKeyA = rotated.body.apiKey;
      await status(cached, c.portalKeyA).expect(200);
      await status(other, c.portalKeyA).expect(200);
    });

    it('a revoked private-app token stops working at once, even beside a valid hapikey', async () => {
      const cached = await gateway({ lookupCacheMs: 60_000 });
      const call = () => request(cached).get(`${v2}/sync/errors/portal`).set('authorization', `Bearer ${c.privateAppA}`);
      await call().expect(200);
      await admin('delete', `/admin/v1/credentials/${c.privateAppACredentialId}`, undefined, cached).expect(204);
      await call().expect(401);
      const besideKey = await request(cached)
        .get(`${v2}/sync/errors/portal?hapikey=${c.portalKeyA}`)
        .set('authorization', `Bearer ${c.privateAppA}`)
        .expect(401);
      expect(besideKey.body.message).toMatch(/Invalid bearer token.*revoked/);
      await admin('delete', `/admin/v1/credentials/${c.privateAppACredentialId}`, undefined, cached).expect(404);
    });

    it('a rotated developer key stops working, the new one works; the answer that carries it is not to be stored by a cache', async () => {
      const rotated = await admin('post', `/admin/v1/developers/${c.developer2.developerId}/api-key`).expect(201);
      expect(rotated.headers['cache-control']).toBe('no-store');
      const { apiKey } = rotated.body;
      await request(app).get(`${v2}/sync/errors/app/${c.appY.appId}?hapikey=${c.developer2.apiKey}`).expect(401);
      await request(app).get(`${v2}/sync/errors/app/${c.appY.appId}?hapikey=${apiKey}`).expect(200);
      c.developer2.apiKey = apiKey;
    });

    it('a rotated client secret no longer refreshes tokens', async () => {
      const { refreshToken } = await tenantCredentials.install(PORTAL_B, c.appY.appId);
      const { clientSecret } = (await admin('post', `/admin/v1/apps/${c.appY.appId}/client-secret`).expect(201)).body;
      const form = { grant_type: 'refresh_token', client_id: c.appY.clientId, refresh_token: refreshToken };
      await request(app)
        .post('/oauth/v1/token')
        .type('form')
        .send({ ...form, client_secret: c.appY.clientSecret })
        .expect(401);
      await request(app)
        .post('/oauth/v1/token')
        .type('form')
        .send({ ...form, client_secret: clientSecret })
        .expect(200);
      c.appY.clientSecret = clientSecret;
    });
  });

  describe('admin API', () => {
    it('refuses every other credential with 401', async () => {
      for (const authorization of ['', 'Bearer wrong', `Bearer ${c.privateAppA}`, `Bearer ${c.tokensAX.accessToken}`]) {
        const response = await request(app).get('/admin/v1/portals').set('authorization', authorization).expect(401);
        expect(response.body.message).toMatch(/ADMIN_TOKEN/);
      }
      await request(app).get(`/admin/v1/portals?hapikey=${c.portalKeyA}`).expect(401);
    });

    it('when a listing is asked a page at a time, then each page goes on after the key it names, and a bad page is a 400', async () => {
      const first = (await admin('get', `/admin/v1/portals?after=${PORTAL_A - 1}&limit=1`).expect(200)).body;
      expect(first).toEqual({ results: [expect.objectContaining({ portalId: PORTAL_A })], paging: { next: { after: String(PORTAL_A) } } });
      const next = (await admin('get', `/admin/v1/portals?after=${first.paging.next.after}&limit=1000`).expect(200)).body;
      expect(next.results.map((portal: { portalId: number }) => portal.portalId)).toContain(PORTAL_B);
      expect(next.results.every((portal: { portalId: number }) => portal.portalId > PORTAL_A)).toBe(true);

      const installs = (await admin('get', `/admin/v1/installs?portalId=${PORTAL_A}&limit=1`).expect(200)).body;
      expect(installs).toEqual({ results: [expect.objectContaining({ portalId: PORTAL_A, appId: c.appX.appId })] });
      const after = encodeURIComponent(`${PORTAL_A}:${c.appX.appId}`);
      expect((await admin('get', `/admin/v1/installs?appId=${c.appX.appId}&after=${after}`).expect(200)).body.results).toEqual([]);

      for (const [path, message] of [
        ['/admin/v1/portals?limit=0', /limit must be an integer from 1 to 1000/],
        ['/admin/v1/developers?limit=1001', /limit must be an integer from 1 to 1000/],
        ['/admin/v1/portals?after=x', /after must be an id from paging.next.after/],
        ['/admin/v1/installs?after=12', /after must be <portalId>:<appId>/],
        ['/admin/v1/installs?appId=a&appId=b', /^Query parameter appId must be given once, as text$/],
        ['/admin/v1/credentials?portalId=', /^Query parameter portalId must be a positive integer, got ""$/],
        ['/admin/v1/installs?portalId=1e3', /^Query parameter portalId must be a positive integer, got "1e3"$/],
        ['/admin/v1/portals/0x10', /^portalId in the path must be a positive integer, got "0x10"$/],
        [`/admin/v1/credentials?portalId=${PORTAL_A}&appId=a&appId=b`, /^Query parameter appId must be given once, as text$/],
      ] as const)
        expect((await admin('get', path).expect(400)).body.message).toMatch(message);
      // A new portal takes the pipeline limit a change may set, no more.
      const tooMany = await admin('post', '/admin/v1/portals').send({ name: 'Many pipelines', pipelineLimit: 1001 }).expect(400);
      expect(tooMany.body.message).toBe('body/pipelineLimit must be <= 1000');
    });

    it('lists portals, developers, applications, installs and credentials, never a secret', async () => {
      const portals = (await admin('get', '/admin/v1/portals').expect(200)).body.results;
      expect(portals).toEqual(expect.arrayContaining([{ portalId: PORTAL_A, name: `Portal ${PORTAL_A}`, active: true }]));
      const portal = (await admin('get', `/admin/v1/portals/${PORTAL_A}`).expect(200)).body;
      expect(portal.installs).toEqual([{ portalId: PORTAL_A, appId: c.appX.appId, installedAt: expect.any(Number) }]);
      expect(portal.credentials.map((credential: { kind: string }) => credential.kind)).toEqual(
        expect.arrayContaining(['portal-key', 'access-token', 'refresh-token']),
      );
      const developers = (await admin('get', '/admin/v1/developers').expect(200)).body.results;
      expect(developers).toEqual(expect.arrayContaining([{ developerId: c.developer1.developerId, name: 'One' }]));
      const applications = (await admin('get', `/admin/v1/apps?developerId=${c.developer1.developerId}`).expect(200)).body.results;
      expect(applications).toEqual([{ appId: c.appX.appId, developerId: c.developer1.developerId, name: 'Connector X', clientId: c.appX.clientId }]);
      const installs = (await admin('get', `/admin/v1/installs?appId=${c.appY.appId}`).expect(200)).body.results;
      expect(installs).toEqual([{ portalId: PORTAL_B, appId: c.appY.appId, installedAt: expect.any(Number) }]);
      const credentials = (await admin('get', `/admin/v1/credentials?developerId=${c.developer1.developerId}`).expect(200)).body.results;
      expect(credentials).toEqual([
        expect.objectContaining({ kind: 'developer-key', developerId: c.developer1.developerId, credentialId: expect.stringMatching(/^cred_/) }),
      ]);
      const everything = JSON.stringify({ portals, portal, developers, applications, installs, credentials });
      for (const secret of [c.portalKeyA, c.developer1.apiKey, c.appX.clientSecret, c.tokensAX.accessToken, c.tokensAX.refreshToken])
        expect(everything).not.toContain(secret);
    });

    it.each([
      ['an install of an unknown application', 404, () => admin('post', '/admin/v1/installs', { portalId: PORTAL_A, appId: 'nope' })],
      ['an install in an unknown portal', 404, () => admin('post', '/admin/v1/installs', { portalId: 424242, appId: c.appX.appId })],
      ['an install without appId', 400, () => admin('post', '/admin/v1/installs', { portalId: PORTAL_A })],
      ['an application of an unknown developer', 404, () => admin('post', '/admin/v1/apps', { developerId: 99, name: 'x' })],
      ['a key rotation of an unknown portal', 404, () => admin('post', '/admin/v1/portals/424242/api-key')],
      ['a portal id that is not a number', 400, () => admin('post', '/admin/v1/portals/abc/disable')],
      ['a credential listing without an owner', 400, () => admin('get', '/admin/v1/credentials')],
    ])('%s answers %i', async (_name, status, send) => {
      const response = await send();
      expect(response.status).toBe(status);
      expect(response.body).toMatchObject({ status: 'error', message: expect.any(String) });
    });
  });

  describe('rate limits', () => {
    it('answers 429 with Retry-After once a credential used its budget, and other credentials go on', async () => {
      const limited = await gateway({ rateLimit: { limit: 3, windowMs: 60_000 } });
      const call = (key: string) => request(limited).get(`${v1}/sync-status/CONTACT/c1?hapikey=${key}`);
      for (let i = 0; i < 3; i++) await call(c.portalKeyA).expect(200);
      const refused = await call(c.portalKeyA).expect(429);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      expect(refused.body).toEqual({ status: 'error', message: expect.stringMatching(/3 requests per 60 s/), requestId: expect.any(String) });
      await call(c.portalKeyB).expect(404); // not limited: B's own answer (it never sent c1 directly)
    });

    it("answers 429 once an install's access tokens together used its budget: a refresh gives no more", async () => {
      const limited = await gateway({ rateLimit: { limit: 3, windowMs: 60_000 } });
      const first = await tenantCredentials.install(PORTAL_B, c.appX.appId);
      const form = { grant_type: 'refresh_token', client_id: c.appX.clientId, client_secret: c.appX.clientSecret, refresh_token: first.refreshToken };
      const second = (await request(limited).post('/oauth/v1/token').type('form').send(form).expect(200)).body.access_token as string;
      const call = (accessToken: string) => request(limited).get(`${v2}/sync/errors`).set('authorization', `Bearer ${accessToken}`);
      for (const accessToken of [first.accessToken, second, first.accessToken]) await call(accessToken).expect(200);
      const refused = await call(second).expect(429);
      expect(refused.body.message).toMatch(/this install's access tokens together may make 3 requests per 60 s/);
      await call(c.tokensAX.accessToken).expect(200); // another install's token counts apart
    });
  });
});
