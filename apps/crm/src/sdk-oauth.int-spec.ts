import { Client } from '@hubspot/api-client';
import * as oauth from '@hubspot/api-client/lib/codegen/oauth';
import { startTestCrmServer, type TestCrmServer } from './crm-server-fixture';

/** The SDK's error of a refused call: its HTTP status and body. */
async function refusalOf(call: Promise<unknown>): Promise<{ code: number | 'resolved'; body?: unknown }> {
  try {
    await call;
    return { code: 'resolved' };
  } catch (error) {
    const { code, body } = error as { code?: number; body?: unknown };
    return { code: code ?? -1, body };
  }
}

/** A form posted to the token endpoint as any client would, for the refusals the SDK's model hides. */
async function postToken(baseUrl: string, form: Record<string, string>, contentType = 'application/x-www-form-urlencoded') {
  const response = await fetch(`${baseUrl}/oauth/v1/token`, {
    method: 'POST',
    headers: { 'content-type': contentType },
    body: new URLSearchParams(form).toString(),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

/**
 * The vendor's official SDK (`@hubspot/api-client`), unmodified, against the built-in CRM's OAuth
 * token endpoint: an account's registered client exchanges its refresh token for access tokens that
 * open the objects API until they expire. The CRM's clock is the test's; each case has a portal.
 */
describe('the hosted CRM vendor SDK: OAuth tokens of the built-in CRM', () => {
  let crm: TestCrmServer;
  let now = Date.now(); // from the real time on, so that the database's TTL removes nothing early
  let portalId = 1900;
  let clientId: string;
  let refreshToken: string;
  const clientSecret = 'the-client-secret-of-the-test-app';
  const tokens = () => new Client({ basePath: crm.baseUrl, numberOfApiCallRetries: 0 }).oauth.tokensApi;
  const clientWith = (accessToken: string) => new Client({ accessToken, basePath: crm.baseUrl, numberOfApiCallRetries: 0 });

  beforeAll(async () => {
    crm = await startTestCrmServer('crm-sdk-oauth', { clock: () => now });
  });

  beforeEach(async () => {
    portalId++;
    clientId = `client-of-portal-${portalId}`;
    await crm.account(portalId, `static-token-of-portal-${portalId}`);
    refreshToken = await crm.oauthGrant(portalId, clientId, clientSecret);
  });

  afterAll(() => crm?.close());

  it('when the refresh token is exchanged with tokensApi.create, then the answer is the SDK’s TokenResponseIF: a bearer token for 1800 s and the same refresh token', async () => {
    const answer = await tokens().create('refresh_token', undefined, undefined, clientId, clientSecret, refreshToken);

    expect(answer).toBeInstanceOf(oauth.TokenResponseIF);
    expect(answer).toMatchObject({ tokenType: 'bearer', expiresIn: 1800, refreshToken, accessToken: expect.stringMatching(/^\S{32,}$/) });
    const again = await tokens().create('refresh_token', undefined, undefined, clientId, clientSecret, refreshToken);
    expect(again.accessToken).not.toBe(answer.accessToken);
  });

  it('when a Client carries the access token, then it creates and reads contacts of the account, which its static token sees too', async () => {
    const { accessToken } = await tokens().create('refresh_token', undefined, undefined, clientId, clientSecret, refreshToken);
    const client = clientWith(accessToken);

    const created = await client.crm.contacts.basicApi.create({ properties: { email: `ada-${portalId}@example.com`, firstname: 'Ada' }, associations: [] });
    const read = await client.crm.contacts.basicApi.getById(created.id, ['email', 'firstname']);

    expect(read.properties).toMatchObject({ email: `ada-${portalId}@example.com`, firstname: 'Ada' });
    const page = await clientWith(`static-token-of-portal-${portalId}`).crm.contacts.basicApi.getPage(10);
    expect(page.results.map((contact) => contact.id)).toEqual([created.id]);
  });

  it('when the client secret is wrong, then the SDK gets 400 with the hosted CRM’s error body and no token', async () => {
    const refused = await refusalOf(tokens().create('refresh_token', undefined, undefined, clientId, 'not-the-secret', refreshToken));

    expect(refused.code).toBe(400);
    expect(refused.body).toMatchObject({ status: 'BAD_CLIENT_ID', category: 'VALIDATION_ERROR', correlationId: expect.any(String), error: 'invalid_client' });
    expect(JSON.stringify(refused.body)).not.toContain('crm-oat-');
  });

  it('when the CRM’s clock passes the token’s expiry, then the objects API answers 401 EXPIRED_AUTHENTICATION, and a new token works', async () => {
    const { accessToken, expiresIn } = await tokens().create('refresh_token', undefined, undefined, clientId, clientSecret, refreshToken);
    const client = clientWith(accessToken);
    await client.crm.contacts.basicApi.getPage(10);

    now += expiresIn * 1000;
    const refused = await refusalOf(client.crm.contacts.basicApi.getPage(10));

    expect(refused.code).toBe(401);
    expect(refused.body).toMatchObject({ category: 'EXPIRED_AUTHENTICATION', message: expect.stringContaining('expired') });
    const fresh = await tokens().create('refresh_token', undefined, undefined, clientId, clientSecret, refreshToken);
    await expect(clientWith(fresh.accessToken).crm.contacts.basicApi.getPage(10)).resolves.toBeDefined();
  });

  it.each([
    ['an unknown refresh token', { refresh_token: 'crm-ort-unknown' }, 'BAD_REFRESH_TOKEN', 'invalid_grant'],
    ['an unknown client', { client_id: 'nobody' }, 'BAD_CLIENT_ID', 'invalid_client'],
    ['another grant type', { grant_type: 'authorization_code' }, 'BAD_GRANT_TYPE', 'unsupported_grant_type'],
    ['no refresh token', { refresh_token: '' }, 'BAD_REFRESH_TOKEN', 'invalid_request'],
    ['no client secret', { client_secret: '' }, 'BAD_CLIENT_ID', 'invalid_request'],
  ])('when the form has %s, then the answer is 400 naming it, as the hosted CRM does', async (_case, change, status, error) => {
    const form = { grant_type: 'refresh_token', client_id: clientId, client_secret: clientSecret, refresh_token: refreshToken, ...change };

    const answer = await postToken(crm.baseUrl, form);

    expect(answer).toEqual({ status: 400, body: expect.objectContaining({ status, error, category: 'VALIDATION_ERROR', message: expect.any(String) }) });
  });

  it('when the refresh token of another account’s client is presented with this client, then it is refused and works for its own client', async () => {
    const otherPortal = ++portalId;
    await crm.account(otherPortal, `static-token-of-portal-${otherPortal}`);
    const theirs = await crm.oauthGrant(otherPortal, 'the-other-client', 'the-other-secret');

    const answer = await postToken(crm.baseUrl, { grant_type: 'refresh_token', client_id: clientId, client_secret: clientSecret, refresh_token: theirs });

    expect(answer.body).toMatchObject({ status: 'BAD_REFRESH_TOKEN', error: 'invalid_grant' });
    await expect(tokens().create('refresh_token', undefined, undefined, 'the-other-client', 'the-other-secret', theirs)).resolves.toBeDefined();
  });

  it('when the body is JSON instead of a form, then the answer is 415', async () => {
    const answer = await postToken(crm.baseUrl, {}, 'application/json');

    expect(answer.status).toBe(415);
  });

  it('when the client is registered again, then the earlier refresh token is refused and the new one works', async () => {
    const second = await crm.oauthGrant(portalId, clientId, clientSecret);

    const refused = await refusalOf(tokens().create('refresh_token', undefined, undefined, clientId, clientSecret, refreshToken));

    expect(refused.code).toBe(400);
    await expect(tokens().create('refresh_token', undefined, undefined, clientId, clientSecret, second)).resolves.toBeInstanceOf(oauth.TokenResponseIF);
  });

  it('when a token was issued, then the database holds only hashes of the secret and the tokens, and a TTL index on the expiry', async () => {
    const { accessToken } = await tokens().create('refresh_token', undefined, undefined, clientId, clientSecret, refreshToken);

    const stored = JSON.stringify([
      await crm.connection.collection('crm_oauth_grants').find({ portalId }).toArray(),
      await crm.connection.collection('crm_oauth_access_tokens').find({ portalId }).toArray(),
    ]);
    for (const secret of [clientSecret, refreshToken, accessToken]) expect(stored).not.toContain(secret);
    const token = await crm.connection.collection('crm_oauth_access_tokens').findOne({ portalId });
    expect(token?.expiresAt).toEqual(new Date(now + 1800 * 1000));
    const indexes = await crm.connection.collection('crm_oauth_access_tokens').listIndexes().toArray();
    expect(indexes).toContainEqual(expect.objectContaining({ key: { expiresAt: 1 }, expireAfterSeconds: 0 }));
  });

  it.each([
    ['for a portal without an account', 404, () => 4_000_000, 'admin-token'],
    ['without the admin token', 401, () => portalId, 'wrong'],
  ])('when a client is registered %s, then the admin call answers %d', async (_case, expected, portal, adminToken) => {
    const response = await fetch(`${crm.baseUrl}/crm/admin/v1/accounts/${portal()}/oauth-grants`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${adminToken}` },
      body: JSON.stringify({ clientId: 'c', clientSecret: 's' }),
    });

    expect(response.status).toBe(expected);
  });
});
