import request from 'supertest';
import { credentialsWorld, PORTAL_A, PORTAL_B, v1, v2, v2Settings, type CredentialsWorld } from './credentials-fixture';

/**
 * Issue 7: a credential reaches only its own tenant's data, whatever it names.
 */
describe('credentials and tenant isolation', () => {
  const w = credentialsWorld('test-credentials-tenants');
  let { app, database, tenantCredentials } = {} as CredentialsWorld;
  beforeAll(() => ({ app, database, tenantCredentials } = w));
  const { c } = w;

  describe('another tenant', () => {
    it.each([
      ["another portal's key on a portal path", 403, () => request(app).get(`${v1}/sync-errors/portal/${PORTAL_A}?hapikey=${c.portalKeyB}`)],
      ["another portal's key on a v2 portal path", 403, () => request(app).get(`${v2}/sync/errors/portal/${PORTAL_A}?hapikey=${c.portalKeyB}`)],
      [
        "another developer's key on an application's settings",
        404,
        () => request(app).get(`${v1}/settings?hapikey=${c.developer2.apiKey}&appId=${c.appX.appId}`),
      ],
      [
        "another developer's key on an application's v2 settings",
        404,
        () => request(app).put(`${v2}/settings?hapikey=${c.developer2.apiKey}&appId=${c.appX.appId}`).send(v2Settings),
      ],
      [
        "another developer's key on an application's errors",
        404,
        () => request(app).get(`${v2}/sync/errors/app/${c.appX.appId}?hapikey=${c.developer2.apiKey}`),
      ],
      [
        "another developer's key on the v1 error listing",
        404,
        () => request(app).get(`${v1}/sync-errors?hapikey=${c.developer2.apiKey}&appId=${c.appX.appId}`),
      ],
      [
        "a portal's key naming an application on the v1 error listing",
        403,
        () => request(app).get(`${v1}/sync-errors?hapikey=${c.portalKeyA}&appId=${c.appX.appId}`),
      ],
      [
        "an application's token naming another application on the v1 error listing",
        403,
        () => request(app).get(`${v1}/sync-errors?appId=${c.appY.appId}`).set('authorization', `Bearer ${c.tokensAX.accessToken}`),
      ],
      ['an application that does not exist', 404, () => request(app).get(`${v1}/settings?hapikey=${c.developer1.apiKey}&appId=999`)],
      [
        "another portal's OAuth token on an object of another portal",
        404,
        () => request(app).get(`${v2}/sync/status/web/CONTACT/only-${PORTAL_A}`).set('authorization', `Bearer ${c.tokensBY.accessToken}`),
      ],
      [
        "another portal's key on a console page of another portal",
        403,
        () => request(app).get(`/console/api/v1/overview?portalId=${PORTAL_A}&hapikey=${c.portalKeyB}`),
      ],
      [
        "another portal's OAuth token on the console errors of another portal",
        403,
        () => request(app).get(`/console/api/v1/errors?portalId=${PORTAL_A}`).set('authorization', `Bearer ${c.tokensBY.accessToken}`),
      ],
      [
        "another portal's key retrying an object of another portal",
        404,
        () =>
          request(app)
            .post(`/console/api/v1/errors/retry?hapikey=${c.portalKeyB}`)
            .send({ object: { portalId: PORTAL_A, appId: null, storeId: 'default', objectType: 'CONTACT', externalObjectId: 'c1' } }),
      ],
      [
        "another portal's key inspecting an object of another portal",
        403,
        () => request(app).get(`/console/api/v1/objects?portalId=${PORTAL_A}&storeId=web&objectType=CONTACT&externalObjectId=c1&hapikey=${c.portalKeyB}`),
      ],
      [
        "another portal's OAuth token inspecting an object of another portal",
        403,
        () =>
          request(app)
            .get(`/console/api/v1/objects?portalId=${PORTAL_A}&storeId=web&objectType=CONTACT&externalObjectId=only-${PORTAL_A}`)
            .set('authorization', `Bearer ${c.tokensBY.accessToken}`),
      ],
      [
        "a developer's key inspecting its application in a portal that did not install it",
        404,
        () =>
          request(app).get(
            `/console/api/v1/objects?portalId=${PORTAL_B}&storeId=web&objectType=CONTACT&externalObjectId=c1&hapikey=${c.developer1.apiKey}&appId=${c.appX.appId}`,
          ),
      ],
      [
        "a portal's key inspecting an application not installed in it",
        404,
        () =>
          request(app).get(
            `/console/api/v1/objects?storeId=web&objectType=CONTACT&externalObjectId=only-${PORTAL_B}&appId=${c.appY.appId}&hapikey=${c.portalKeyA}`,
          ),
      ],
      [
        "another portal's key on the reporting page of another portal",
        403,
        () => request(app).get(`/console/api/v1/report?portalId=${PORTAL_A}&hapikey=${c.portalKeyB}`),
      ],
      [
        "another developer's key on an application's console",
        404,
        () => request(app).get(`/console/api/v1/overview?hapikey=${c.developer2.apiKey}&appId=${c.appX.appId}`),
      ],
      [
        "another portal's key on an object of another portal",
        404,
        () => request(app).get(`${v2}/sync/status/web/CONTACT/only-${PORTAL_A}?hapikey=${c.portalKeyB}`),
      ],
    ])('%s answers %i', async (_name, status, send) => {
      const response = await send();
      expect(response.status).toBe(status);
      expect(response.body.message).toEqual(expect.any(String));
    });

    it('lists to each credential only its own errors', async () => {
      const ids = async (call: request.Test) =>
        ((await call.expect(200)).body.results as { externalObjectId?: string; integratorObjectId?: string }[])
          .map((e) => e.externalObjectId ?? e.integratorObjectId)
          .sort();
      const x = c.appX.appId;
      const y = c.appY.appId;
      expect(await ids(request(app).get(`${v2}/sync/errors`).set('authorization', `Bearer ${c.tokensAX.accessToken}`))).toEqual([`err-${PORTAL_A}-${x}`]);
      expect(await ids(request(app).get(`${v2}/sync/errors`).set('authorization', `Bearer ${c.tokensBY.accessToken}`))).toEqual([`err-${PORTAL_B}-${y}`]);
      expect(await ids(request(app).get(`${v2}/sync/errors/portal?hapikey=${c.portalKeyA}`))).toEqual([`err-${PORTAL_A}-${x}`, `err-${PORTAL_A}-direct`]);
      expect(await ids(request(app).get(`${v2}/sync/errors/portal`).set('authorization', `Bearer ${c.privateAppA}`))).toEqual([
        `err-${PORTAL_A}-${x}`,
        `err-${PORTAL_A}-direct`,
      ]);
      expect(await ids(request(app).get(`${v1}/sync-errors?hapikey=${c.portalKeyA}`))).toEqual([`err-${PORTAL_A}-direct`]);
      expect(await ids(request(app).get(`${v1}/sync-errors?hapikey=${c.developer1.apiKey}&appId=${x}`))).toEqual([`err-${PORTAL_A}-${x}`]);
      // An installed application's OAuth token: its errors in its portal, in v1 as in v2.
      expect(await ids(request(app).get(`${v1}/sync-errors`).set('authorization', `Bearer ${c.tokensAX.accessToken}`))).toEqual([`err-${PORTAL_A}-${x}`]);
      expect(await ids(request(app).get(`${v1}/sync-errors`).set('authorization', `Bearer ${c.tokensBY.accessToken}`))).toEqual([`err-${PORTAL_B}-${y}`]);
      expect(await ids(request(app).get(`${v2}/sync/errors/app/${y}?hapikey=${c.developer2.apiKey}`))).toEqual([`err-${PORTAL_B}-${y}`]);
    });

    it("when a portal uninstalls the application, then the developer's listings no longer show that portal's errors", async () => {
      const PORTAL_C = 8103;
      const x = c.appX.appId;
      await tenantCredentials.portal(PORTAL_C, 'pk-credentials-c');
      await tenantCredentials.install(PORTAL_C, x);
      const error = { rev: 1, settingsRev: 1, type: 'INVALID_EMAIL_ADDRESS' as const, details: 'x', changedAt: 1, erroredAt: 1 };
      await database.repositories.syncErrors.record({ tenant: { portalId: PORTAL_C, appId: x }, storeId: 'default', objectType: 'CONTACT' }, [
        { externalObjectId: `err-${PORTAL_C}-${x}`, ...error },
      ]);
      const listings = [
        `${v2}/sync/errors/app/${x}?hapikey=${c.developer1.apiKey}`,
        `${v1}/sync-errors/app/${x}?hapikey=${c.developer1.apiKey}`,
        `${v1}/sync-errors?hapikey=${c.developer1.apiKey}&appId=${x}`,
      ];
      const ids = async (path: string) =>
        ((await request(app).get(path).expect(200)).body.results as { externalObjectId?: string; integratorObjectId?: string }[])
          .map((e) => e.externalObjectId ?? e.integratorObjectId)
          .sort();
      for (const path of listings) expect(await ids(path)).toEqual([`err-${PORTAL_A}-${x}`, `err-${PORTAL_C}-${x}`]);

      await tenantCredentials.uninstall(PORTAL_C, x);

      for (const path of listings) expect(await ids(path)).toEqual([`err-${PORTAL_A}-${x}`]);
    });

    it('when each credential lists the console installs, then it sees only its own portals and applications', async () => {
      const installs = async (call: request.Test) =>
        ((await call.expect(200)).body.results as { portalId: number; appId: string; appName: string }[]).map((i) => [i.portalId, i.appId, i.appName]);
      const [x, y] = [c.appX.appId, c.appY.appId];
      expect(await installs(request(app).get(`/console/api/v1/installs?hapikey=${c.developer1.apiKey}&appId=${x}`))).toEqual([[PORTAL_A, x, 'Connector X']]);
      expect(await installs(request(app).get(`/console/api/v1/installs?hapikey=${c.developer2.apiKey}&appId=${y}`))).toEqual([[PORTAL_B, y, 'Connector Y']]);
      expect(await installs(request(app).get(`/console/api/v1/installs?hapikey=${c.portalKeyA}`))).toEqual([[PORTAL_A, x, 'Connector X']]);
      expect(await installs(request(app).get('/console/api/v1/installs').set('authorization', `Bearer ${c.tokensBY.accessToken}`))).toEqual([
        [PORTAL_B, y, 'Connector Y'],
      ]);
      await request(app).get(`/console/api/v1/installs?hapikey=${c.developer1.apiKey}&appId=${x}&portalId=${PORTAL_B}`).expect(404);
      await request(app).get(`/console/api/v1/installs?hapikey=${c.portalKeyB}&portalId=${PORTAL_A}`).expect(403);
    });

    it("reads an object's status with its own tenant's credential", async () => {
      await request(app).get(`${v2}/sync/status/web/CONTACT/only-${PORTAL_A}`).set('authorization', `Bearer ${c.tokensAX.accessToken}`).expect(200);
    });

    it('reads and writes settings of the tenant the credential names', async () => {
      await request(app)
        .put(`${v2}/settings?hapikey=${c.developer1.apiKey}&appId=${c.appX.appId}`)
        .send({ ...v2Settings, webhookUri: 'https://x.example.com/hook' })
        .expect(200);
      expect((await request(app).get(`${v2}/settings?hapikey=${c.portalKeyA}`).expect(200)).body.webhookUri).not.toBe('https://x.example.com/hook');
      expect((await request(app).get(`${v2}/settings?hapikey=${c.developer1.apiKey}&appId=${c.appX.appId}`).expect(200)).body.webhookUri).toBe(
        'https://x.example.com/hook',
      );
    });
  });
});
