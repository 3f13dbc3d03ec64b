import type { Express } from 'express';
import request from 'supertest';
import { seedPortal } from '@ecomm-sync/testing';
import { startGatewayFixture, type GatewayFixture } from './gateway-fixture';

const PORTAL = 8301;
const PORTAL_KEY = 'pk-auth-throttle';
const v1 = '/extensions/ecomm/v1';

/**
 * Issue 15 item 6 and issue 26 item 4: failed authentication is throttled per client address and
 * per credential, in the customer API, the admin API and POST /oauth/v1/token; only failures are
 * refused, a right credential always goes through. The supertest client is on loopback,
 * configured here as the trusted proxy, so X-Forwarded-For stands for the client address.
 */
describe('throttling failed authentication', () => {
  let fixture: GatewayFixture;
  let throttled: Express;
  let address = 0;
  /** A client address of this test alone (the throttle's counts live as long as the app). */
  const newAddress = () => `203.0.113.${++address}`;
  const status = (from: string, key: string) => request(throttled).get(`${v1}/sync-status/CONTACT/c1?hapikey=${key}`).set('x-forwarded-for', from);

  beforeAll(async () => {
    fixture = await startGatewayFixture('test-auth-throttle');
    await seedPortal(fixture.database.repositories, { portalId: PORTAL, apiKey: PORTAL_KEY });
    throttled = await fixture.gateway({ authThrottle: { limit: 3, windowMs: 60_000 }, trustedProxies: 'loopback' });
  });
  afterAll(() => fixture.close());

  it('when one address sends three wrong keys, then its next wrong key answers 429 with Retry-After, while the right key from that address goes through', async () => {
    const guesser = newAddress();
    for (let i = 0; i < 3; i++) await status(guesser, `wrong-key-${i}`).expect(401);
    const refused = await status(guesser, 'wrong-key-3').expect(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(refused.body).toEqual({
      status: 'error',
      message: expect.stringMatching(/^Too many failed authentication attempts from this client address: at most 3 per 60 s/),
      requestId: expect.any(String),
    });
    // Behind an ingress every client shares one address: a right credential always goes through.
    await status(guesser, PORTAL_KEY).expect(404); // the portal's own answer: it never sent c1
    await status(newAddress(), PORTAL_KEY).expect(404);
  });

  it('when one wrong key is tried from three addresses, then a fourth address is refused with that key, and the right key goes through there', async () => {
    for (let i = 0; i < 3; i++) await status(newAddress(), 'the-same-wrong-key').expect(401);
    const fourth = newAddress();
    const refused = await status(fourth, 'the-same-wrong-key').expect(429);
    expect(refused.body.message).toMatch(/from this credential/);
    await status(fourth, PORTAL_KEY).expect(404);
  });

  it('when one wrong key is tried in the X-Api-Key header and as hapikey from three addresses, then a fourth address is refused with it in the header', async () => {
    const byHeader = (from: string, key: string) => request(throttled).get(`${v1}/sync-status/CONTACT/c1`).set('x-api-key', key).set('x-forwarded-for', from);
    await byHeader(newAddress(), 'a-wrong-header-key').expect(401);
    await status(newAddress(), 'a-wrong-header-key').expect(401);
    await byHeader(newAddress(), 'a-wrong-header-key').expect(401);
    const fourth = newAddress();
    const refused = await byHeader(fourth, 'a-wrong-header-key').expect(429);
    expect(refused.body.message).toMatch(/from this credential/);
    await byHeader(fourth, PORTAL_KEY).expect(404);
  });

  it('when a client authenticates successfully many times, then nothing is counted against it', async () => {
    const client = newAddress();
    for (let i = 0; i < 6; i++) await status(client, PORTAL_KEY).expect(404);
    await status(client, 'one-typo').expect(401);
  });

  it('when the admin token is guessed three times, then the next guess from that address answers 429, and the right token goes through', async () => {
    const guesser = newAddress();
    const portals = (token: string) =>
      request(throttled).post('/admin/v1/portals').set('x-forwarded-for', guesser).set('authorization', `Bearer ${token}`).send({ name: 'x' });
    for (let i = 0; i < 3; i++) await portals(`guess-${i}`).expect(401);
    const refused = await portals('guess-3').expect(429);
    expect(refused.headers['retry-after']).toBeDefined();
    expect(refused.body).toMatchObject({ status: 'error', message: expect.stringMatching(/client address/) });
    await request(throttled).get('/admin/v1/portals').set('x-forwarded-for', guesser).set('authorization', 'Bearer admin').expect(200);
  });

  it('when wrong client secrets for one client_id come from three addresses, then /oauth/v1/token answers 429 for that client_id', async () => {
    const token = (from: string, clientId: string) =>
      request(throttled)
        .post('/oauth/v1/token')
        .set('x-forwarded-for', from)
        .type('form')
        .send({ grant_type: 'refresh_token', client_id: clientId, client_secret: 'guess', refresh_token: 'r' });
    for (let i = 0; i < 3; i++) await token(newAddress(), 'client-under-attack').expect(401);
    const refused = await token(newAddress(), 'client-under-attack').expect(429);
    expect(refused.body).toMatchObject({ status: 'error', message: expect.stringMatching(/from this client_id/) });
    await token(newAddress(), 'another-client').expect(401);
  });

  it('when no throttle is configured, then wrong keys keep answering 401', async () => {
    const guesser = newAddress();
    for (let i = 0; i < 5; i++) await request(fixture.app).get(`${v1}/sync-status/CONTACT/c1?hapikey=wrong-${i}`).set('x-forwarded-for', guesser).expect(401);
  });
});
