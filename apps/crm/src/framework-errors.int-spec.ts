import request from 'supertest';
import { openTestCrmApp, type TestCrmApp } from './crm-server-fixture';

/** Sends a Buffer as it is (superagent would serialize it). */
const asIs = (body: unknown) => body as string;

/**
 * The audit's reproductions (issue 17, item 2) against the built-in CRM: requests the framework
 * cannot read are answered with the 4xx of the error model and what to fix, never a 500.
 */
describe('built-in CRM: requests the framework cannot read (real MongoDB)', () => {
  let crm: TestCrmApp | undefined;
  let app: TestCrmApp['app'];
  const token = 'token-of-the-framework-errors-portal';

  beforeAll(async () => {
    crm = await openTestCrmApp('crm_framework', { bodyLimit: '16kb' });
    app = crm.app;
    await request(app).put('/crm/admin/v1/accounts/7301').set('authorization', 'Bearer admin-token').send({ token }).expect(200);
  });

  afterAll(() => crm?.close());

  const post = (path: string) => request(app).post(path).set('authorization', `Bearer ${token}`);

  it.each([
    [
      'a plain JSON body labelled gzip',
      400,
      /could not be decompressed; check its Content-Encoding/,
      () => post('/crm/v3/objects/contacts/batch/read').set('content-type', 'application/json').set('content-encoding', 'gzip').send('{"inputs":[]}'),
    ],
    [
      'a plain JSON body labelled gzip, without a token',
      400,
      /could not be decompressed; check its Content-Encoding/,
      () =>
        request(app).post('/crm/v3/objects/contacts/batch/read').set('content-type', 'application/json').set('content-encoding', 'gzip').send('{"inputs":[]}'),
    ],
    [
      'a JSON body with an unknown Content-Encoding',
      415,
      /Content-Encoding "zstd-x" is not supported; send identity, gzip, deflate or br/,
      () => post('/crm/v3/objects/contacts/batch/read').set('content-type', 'application/json').set('content-encoding', 'zstd-x').send('{"inputs":[]}'),
    ],
    [
      'a JSON body in Latin-1',
      415,
      /charset "latin1" is not supported; send utf-8/,
      () =>
        post('/crm/v3/objects/contacts/batch/read')
          .set('content-type', 'application/json; charset=latin1')
          .serialize(asIs)
          .send(Buffer.from('{"inputs":[]}', 'latin1')),
    ],
    ['a 20 kB body over its limit', 413, /larger than 16kb/, () => post('/crm/v3/objects/contacts/batch/read').send({ inputs: [{ id: 'x'.repeat(20_000) }] })],
    [
      'a malformed percent-encoding in an object path',
      400,
      /malformed percent-encoding/,
      () => request(app).get('/crm/v3/objects/contacts/%ZZ').set('authorization', `Bearer ${token}`),
    ],
    [
      'a malformed percent-encoding in a property path',
      400,
      /malformed percent-encoding/,
      () => request(app).delete('/crm/v3/properties/contacts/%E0%A4%A').set('authorization', `Bearer ${token}`),
    ],
  ])('when the CRM gets %s, then it answers %i in the error shape with what to fix, not 500', async (_case, status, message, send) => {
    const response = await send();
    expect(response.status).toBe(status);
    // The hosted CRM's API answers its error fields beside ours (category, correlationId, errors, context).
    expect(response.body).toEqual({
      status: 'error',
      message: expect.stringMatching(message),
      requestId: expect.any(String),
      category: expect.any(String),
      correlationId: response.body.requestId,
      errors: [{ message: response.body.message }],
      context: {},
    });
  });
});
