import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import express from 'express';
import request from 'supertest';
import { CrmConnections } from '@ecomm-sync/crm-client';
import { SecretBox } from '@ecomm-sync/data-access';
import { seedPortal, TEST_SECRETS_KEY, waitFor } from '@ecomm-sync/testing';
import { startGatewayFixture, type GatewayFixture } from './gateway-fixture';

const PORTAL = 8201;
const PORTAL_KEY = 'pk-crm-connection-8201';
const PATH = `/admin/v1/portals/${PORTAL}/crm-connection`;
const PAT = 'pat-hosted-secret-0123456789';
const OAUTH = { type: 'oauth', clientId: 'client-42', clientSecret: 'oauth-client-secret-0123', refreshToken: 'oauth-refresh-token-0123' };
const SOME_URL = 'https://api.crm.example.com';
const SECRETS = [PAT, OAUTH.clientSecret, OAUTH.refreshToken, 'no-crm'];

/** Issue 13, item 1: a CRM connection per portal, set and read through the admin API. */
describe("admin API: a portal's CRM connection", () => {
  let fixture: GatewayFixture;
  let hostedCrm: Server;
  let hostedUrl: string;
  const seenAuthorizations: string[] = [];

  const admin = (method: 'get' | 'put', path: string, body?: unknown) => {
    const call = request(fixture.app)[method](path).set('authorization', 'Bearer admin');
    return body === undefined ? call : call.send(body as object);
  };
  const expectNoSecret = (answer: unknown, { sealedForms = false } = {}) => {
    const text = JSON.stringify(answer);
    for (const secret of SECRETS) expect(text).not.toContain(secret);
    // An answer shows not even the sealed forms; the stored document holds nothing else.
    if (!sealedForms) expect(text).not.toMatch(/crmToken|Sealed/);
  };

  beforeAll(async () => {
    fixture = await startGatewayFixture('test-crm-connection');
    await seedPortal(fixture.database.repositories, { portalId: PORTAL, apiKey: PORTAL_KEY });
    // A hosted CRM that records who calls it and refuses the install (so that the answer is quick).
    const app = express();
    app.use((req, res) => {
      seenAuthorizations.push(req.header('authorization') ?? '');
      res.status(400).json({ message: 'this test CRM refuses everything' });
    });
    hostedCrm = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => hostedCrm.once('listening', resolve));
    hostedUrl = `http://127.0.0.1:${(hostedCrm.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    await new Promise((resolve) => hostedCrm?.close(resolve));
    await fixture?.close();
  });

  it('when a portal never had its connection set, then it reads as the built-in CRM without limits', async () => {
    const { body } = await admin('get', PATH).expect(200);

    expect(body).toEqual({
      portalId: PORTAL,
      kind: 'builtin',
      baseUrl: null,
      authType: 'builtin-token',
      clientId: null,
      credentialId: expect.stringMatching(/^crmc-/),
      limits: null,
      lastTokenRefreshAt: null,
      changedAt: null,
    });
  });

  it.each([
    ['no credential', undefined],
    ['a wrong admin token', 'Bearer not-the-admin-token'],
    ["the portal's API key as a bearer token", `Bearer ${PORTAL_KEY}`],
  ])('when called with %s, then 401 and nothing changes', async (_name, authorization) => {
    for (const call of [request(fixture.app).get(PATH), request(fixture.app).put(PATH).send({ kind: 'builtin', tier: 'starter' })]) {
      const response = await (authorization ? call.set('authorization', authorization) : call).expect(401);
      expect(response.body.message).toMatch(/ADMIN_TOKEN/);
    }
    expect((await admin('get', PATH).expect(200)).body.limits).toBeNull();
  });

  it('when a hosted connection names an http URL and CRM_ALLOW_HTTP is not set, then 400 says to use https, and the connection stays as it was', async () => {
    const strict = await fixture.gateway({ crmAllowHttp: false });
    const before = (await admin('get', PATH).expect(200)).body;
    const refused = await request(strict)
      .put(PATH)
      .set('authorization', 'Bearer admin')
      .send({ kind: 'hosted', baseUrl: 'http://api.crm.example.com', auth: { type: 'private-app', token: PAT } })
      .expect(400);
    expect(refused.body.message).toMatch(/baseUrl must be an https URL/);
    expect((await admin('get', PATH).expect(200)).body).toEqual(before);
  });

  it('when the portal is unknown, then 404 for reading and for setting', async () => {
    await admin('get', '/admin/v1/portals/424242/crm-connection').expect(404);
    const response = await admin('put', '/admin/v1/portals/424242/crm-connection', {
      kind: 'hosted',
      baseUrl: hostedUrl,
      auth: { type: 'private-app', token: PAT },
    }).expect(404);
    expect(response.body.message).toMatch(/No portal 424242/);
  });

  it.each([
    ['no body', undefined, /body/],
    ['an unknown kind', { kind: 'other' }, /body\/kind must be one of builtin, hosted/],
    ['an unknown field', { kind: 'builtin', region: 'eu' }, /unknown field "region"/],
    ['hosted without baseUrl', { kind: 'hosted', auth: { type: 'private-app', token: PAT } }, /missing the required field "baseUrl"/],
    ['hosted without auth', { kind: 'hosted', baseUrl: SOME_URL }, /missing the required field "auth"/],
    [
      'a baseUrl that is not http(s)',
      { kind: 'hosted', baseUrl: 'ftp://crm.example.com', auth: { type: 'private-app', token: PAT } },
      /baseUrl must be an http or https URL/,
    ],
    [
      'a baseUrl with credentials in it',
      { kind: 'hosted', baseUrl: 'https://user:pw@crm.example.com', auth: { type: 'private-app', token: PAT } },
      /baseUrl must not carry credentials/,
    ],
    [
      'a private-app auth with OAuth fields',
      { kind: 'hosted', baseUrl: SOME_URL, auth: { type: 'private-app', token: PAT, clientId: 'c' } },
      /auth of type private-app takes a token only/,
    ],
    [
      'an OAuth auth without its refresh token',
      { kind: 'hosted', baseUrl: SOME_URL, auth: { type: 'oauth', clientId: 'c', clientSecret: OAUTH.clientSecret } },
      /missing the required field "refreshToken"/,
    ],
    ['an unknown auth type', { kind: 'hosted', baseUrl: SOME_URL, auth: { type: 'basic', token: PAT } }, /body\/auth\/type must be one of private-app, oauth/],
    ['builtin with a baseUrl', { kind: 'builtin', baseUrl: SOME_URL }, /of kind builtin takes no baseUrl or auth/],
    ['an unknown tier', { kind: 'builtin', tier: 'gold' }, /body\/tier must be one of starter, professional, enterprise/],
    ['a burst of 0', { kind: 'builtin', limits: { burstPer10s: 0 } }, /body\/limits\/burstPer10s must be >= 1/],
    ['an unknown limit', { kind: 'builtin', limits: { perMinute: 5 } }, /unknown field "perMinute"/],
    ['a time zone that does not exist', { kind: 'builtin', limits: { timeZone: 'Mars/Olympus' } }, /timeZone "Mars\/Olympus" is not an IANA time zone/],
    [
      'hosted with null limits',
      { kind: 'hosted', baseUrl: SOME_URL, auth: { type: 'private-app', token: PAT }, limits: null },
      /body\/limits must be an object for kind hosted/,
    ],
  ])('when the body has %s, then 400 naming what to fix, and no secret in the answer', async (_name, body, message) => {
    const response = await admin('put', PATH, body).expect(400);
    expect(response.body.message).toMatch(message);
    expectNoSecret(response.body);
  });

  it('when a hosted private-app connection is set with a tier and overrides, then the answer and later reads show it without the token, and installs use it', async () => {
    const put = await admin('put', PATH, {
      kind: 'hosted',
      baseUrl: `${hostedUrl}/`,
      auth: { type: 'private-app', token: PAT },
      tier: 'professional',
      limits: { timeZone: 'Europe/Berlin', dailyCap: null },
    }).expect(200);

    expect(put.body).toEqual({
      portalId: PORTAL,
      kind: 'hosted',
      baseUrl: hostedUrl,
      authType: 'private-app',
      clientId: null,
      credentialId: expect.stringMatching(/^crmc-[0-9a-f]{16}$/),
      limits: { burstPer10s: 190, dailyCap: null, timeZone: 'Europe/Berlin', searchPerSecond: 4 },
      lastTokenRefreshAt: null,
      changedAt: expect.any(String),
    });
    expect((await admin('get', PATH).expect(200)).body).toEqual(put.body);
    expectNoSecret(put.body);
    expectNoSecret(await fixture.database.connection.collection('portals').findOne({ portalId: PORTAL }), { sealedForms: true });

    const install = await request(fixture.app).post(`/extensions/ecomm/v1/installs?hapikey=${PORTAL_KEY}`).expect(502);
    expect(install.body.message).toMatch(/this test CRM refuses everything/);
    expect(seenAuthorizations).toContain(`Bearer ${PAT}`);
  });

  it('when an OAuth connection is set, then the answer names the client id and a credential id, never the client secret or refresh token, and no daily cap', async () => {
    const { body } = await admin('put', PATH, { kind: 'hosted', baseUrl: hostedUrl, auth: OAUTH, tier: 'enterprise' }).expect(200);

    // The vendor's OAuth calls have no daily limit: the tier's burst, no daily cap.
    expect(body).toMatchObject({
      kind: 'hosted',
      authType: 'oauth',
      clientId: 'client-42',
      limits: { burstPer10s: 250, dailyCap: null, timeZone: 'UTC', searchPerSecond: 4 },
    });
    expectNoSecret(body);
    expectNoSecret((await admin('get', PATH).expect(200)).body);
    const capped = await admin('put', PATH, { kind: 'hosted', baseUrl: hostedUrl, auth: OAUTH, limits: { dailyCap: 5_000 } }).expect(200);
    expect(capped.body.limits).toMatchObject({ burstPer10s: 100, dailyCap: 5_000 });
  });

  it('when a portal is listed or shown, then no CRM token or CRM secret is in the answer', async () => {
    expectNoSecret((await admin('get', '/admin/v1/portals').expect(200)).body);
    expectNoSecret((await admin('get', `/admin/v1/portals/${PORTAL}`).expect(200)).body);
  });

  it("when the connection is set back to builtin with a tier, then it emulates the tier's limits", async () => {
    const { body } = await admin('put', PATH, { kind: 'builtin', tier: 'starter', limits: { searchPerSecond: null } }).expect(200);

    expect(body).toMatchObject({
      kind: 'builtin',
      baseUrl: null,
      authType: 'builtin-token',
      limits: { burstPer10s: 100, dailyCap: 250_000, timeZone: 'UTC', searchPerSecond: null },
    });
  });

  it('when a connection is set in one replica, then every replica drops its CRM clients', async () => {
    const replicaConnections = new CrmConnections({
      portals: fixture.database.repositories.portals,
      secretBox: new SecretBox(TEST_SECRETS_KEY),
      builtinBaseUrl: 'http://127.0.0.1:1',
      allowHttpHosted: true,
    });
    const forget = jest.spyOn(replicaConnections, 'forget');
    await fixture.gateway({ connections: replicaConnections });
    forget.mockClear();

    await admin('put', PATH, { kind: 'builtin' }).expect(200);

    await waitFor(() => forget.mock.calls.length > 0, { timeoutMs: 5000, message: 'the other replica to drop its CRM clients' });
  });
});
