import { gzipSync } from 'node:zlib';
import request from 'supertest';
import { seedPortal } from '@ecomm-sync/testing';
import { startGatewayFixture, type GatewayFixture } from './gateway-fixture';

/** Sends a Buffer as it is (superagent would serialize it as a form). */
const asIs = (body: unknown) => body as string;
const form = (pairs: number, valueLength = 1) => Array.from({ length: pairs }, (_, i) => `p${i}=${'x'.repeat(valueLength)}`).join('&');

/**
 * The audit's reproductions (issue 17, item 2): requests the framework cannot read, answered with
 * the 4xx of the error model and what to fix, never a 500. A body is read only once the request's
 * credential is known to be good: without one, the answer is 401 whatever the body.
 */
describe('gateway: requests the framework cannot read (real MongoDB and RabbitMQ)', () => {
  let fixture: GatewayFixture;
  const apiKey = 'pk-framework-errors';

  beforeAll(async () => {
    fixture = await startGatewayFixture('test-framework-errors');
    await seedPortal(fixture.database.repositories, { portalId: 78, apiKey });
  });

  afterAll(() => fixture?.close());

  it.each([
    [
      'a plain JSON body labelled gzip',
      400,
      /could not be decompressed; check its Content-Encoding/,
      () =>
        request(fixture.app)
          .put(`/extensions/ecomm/v2/sync/messages?hapikey=${apiKey}`)
          .set('content-type', 'application/json')
          .set('content-encoding', 'gzip')
          .send('{"storeId":"s"}'),
    ],
    [
      'a plain form labelled gzip on POST /oauth/v1/token',
      400,
      /could not be decompressed; check its Content-Encoding/,
      () => request(fixture.app).post('/oauth/v1/token').type('form').set('content-encoding', 'gzip').send('grant_type=refresh_token'),
    ],
    [
      'a form with an unknown Content-Encoding on POST /oauth/v1/token',
      415,
      /Content-Encoding "zstd-x" is not supported/,
      () => request(fixture.app).post('/oauth/v1/token').type('form').set('content-encoding', 'zstd-x').send('grant_type=refresh_token'),
    ],
    [
      'a 20 kB form on POST /oauth/v1/token',
      413,
      /larger than .*; send a smaller body/,
      () =>
        request(fixture.app)
          .post('/oauth/v1/token')
          .type('form')
          .send(`grant_type=refresh_token&refresh_token=${'x'.repeat(20_000)}`),
    ],
    [
      'a 1,200-parameter form on POST /oauth/v1/token',
      413,
      /too many parameters/,
      () => request(fixture.app).post('/oauth/v1/token').type('form').send(form(1200)),
    ],
    [
      'a UTF-16 form on POST /oauth/v1/token',
      415,
      /charset "utf-16" is not supported; send utf-8/,
      () =>
        request(fixture.app)
          .post('/oauth/v1/token')
          .set('content-type', 'application/x-www-form-urlencoded; charset=utf-16')
          .serialize(asIs)
          .send(Buffer.from('grant_type=refresh_token', 'utf16le')),
    ],
    [
      'a malformed percent-encoding in a v1 status path',
      400,
      /malformed percent-encoding/,
      () => request(fixture.app).get('/extensions/ecomm/v1/sync-status/CONTACT/%ZZ'),
    ],
    [
      'a malformed percent-encoding in a v2 status path',
      400,
      /malformed percent-encoding/,
      () => request(fixture.app).get('/extensions/ecomm/v2/sync/status/default/CONTACT/%E0%A4%A'),
    ],
  ])('when the gateway gets %s, then it answers %i in the error shape with what to fix, not 500', async (_case, status, message, send) => {
    const response = await send();
    expect(response.status).toBe(status);
    expect(response.body).toEqual({ status: 'error', message: expect.stringMatching(message), requestId: expect.any(String) });
  });

  it.each([
    [
      'a body over the size limit',
      () =>
        request(fixture.app)
          .put('/extensions/ecomm/v2/sync/messages')
          .send({ storeId: 'x'.repeat(2_000_000) }),
    ],
    ['a body that is not JSON', () => request(fixture.app).put('/extensions/ecomm/v1/sync-messages/CONTACT').set('content-type', 'text/csv').send('a,b')],
    ['malformed JSON', () => request(fixture.app).put('/extensions/ecomm/v1/settings').set('content-type', 'application/json').send('{"enabled":')],
    [
      'a wrong admin token and a body over the size limit',
      () =>
        request(fixture.app)
          .post('/admin/v1/portals')
          .set('authorization', 'Bearer nope')
          .send({ name: 'x'.repeat(2_000_000) }),
    ],
  ])('when a request without a good credential carries %s, then it is refused 401 before its body is read', async (_case, send) => {
    const response = await send();
    expect(response.status).toBe(401);
  });

  it('when a request with a good credential carries a body over the size limit, then it is answered 413', async () => {
    const response = await request(fixture.app)
      .put(`/extensions/ecomm/v2/sync/messages?hapikey=${apiKey}`)
      .send({ storeId: 'x'.repeat(2_000_000) });
    expect(response.status).toBe(413);
  });

  it('when the gateway gets a gzip body that really is gzip, then it reads it', async () => {
    const response = await request(fixture.app)
      .post('/oauth/v1/token')
      .type('form')
      .set('content-encoding', 'gzip')
      .serialize(asIs)
      .send(gzipSync('grant_type=nonsense'));
    expect(response.status).toBe(400);
    expect(response.body.message).not.toMatch(/decompress/);
  });
});
