import axios from 'axios';
import { CrmConnections, OAuthAccessTokens } from '@ecomm-sync/crm-client';
import { connectDatabase, SecretBox, sealedFor, type Database, type Portal } from '@ecomm-sync/data-access';
import { testInfrastructure, uniqueName } from '@ecomm-sync/testing';
import { startTestCrmServer, type TestCrmServer } from './crm-server-fixture';

/**
 * The service's OAuth connection (libs/crm-client/src/connections) against the built-in CRM's token endpoint:
 * a portal whose CRM connection is "hosted" with OAuth, pointed at the built-in CRM, syncs there.
 * It lives here because libs may not import the CRM app. The CRM's clock and the service's are
 * the test's, apart, so that the CRM can expire a token the service still holds fresh.
 */
describe('OAuthAccessTokens against the built-in CRM (real MongoDB-wire server, both on port 0)', () => {
  const box = new SecretBox('oauth-against-builtin-crm-key');
  const clientSecret = 'secret-of-the-sync-app';
  let crm: TestCrmServer;
  let database: Database;
  let crmNow = Date.now(); // from the real time on, so that the database's TTL removes nothing early
  const serviceNow = Date.now(); // the service's clock stays: only the CRM's moves
  let portalId = 7100;

  beforeAll(async () => {
    crm = await startTestCrmServer('crm-oauth-tokens', { clock: () => crmNow });
    database = await connectDatabase(testInfrastructure().mongoUrl, uniqueName('oauth_tokens').replace(/-/g, '_'));
  });

  afterAll(async () => {
    await database?.connection.dropDatabase();
    await database?.close();
    await crm?.close();
  });

  const portals = () => database.repositories.portals;
  const load = async (id: number): Promise<Portal> => (await portals().findById(id))!;
  const connections = () =>
    new CrmConnections({
      portals: portals(),
      secretBox: box,
      builtinBaseUrl: 'http://127.0.0.1:1',
      // The built-in CRM of the test listens on loopback http.
      allowHttpHosted: true,
      clock: () => serviceNow,
      refreshMarginMs: 60_000,
      timeoutMs: 5000,
    });

  /** A portal of the service whose CRM is the built-in CRM's account, reached as a hosted CRM over OAuth. */
  async function oauthPortal(): Promise<{ portalId: number; clientId: string; refreshToken: string }> {
    const id = ++portalId;
    const clientId = `sync-app-${id}`;
    await crm.account(id, `static-token-${id}`);
    const refreshToken = await crm.oauthGrant(id, clientId, clientSecret);
    await portals().create({ portalId: id, name: 'p', crmTokenSealed: box.seal('unused-builtin-token', sealedFor.builtinCrmToken(id)) });
    await connections().set(id, { kind: 'hosted', baseUrl: crm.baseUrl, auth: { type: 'oauth', clientId, clientSecret, refreshToken }, tier: 'starter' });
    return { portalId: id, clientId, refreshToken };
  }

  const tokensOf = (id: number, clientId: string) =>
    new OAuthAccessTokens(id, crm.baseUrl, clientId, { portals: portals(), secretBox: box, clock: () => serviceNow, refreshMarginMs: 60_000, timeoutMs: 5000 });

  it('when a token is asked for, then the built-in CRM issues one that opens the account’s objects API, and the portal keeps it sealed with its expiry', async () => {
    const { portalId: id, clientId, refreshToken } = await oauthPortal();

    const token = await tokensOf(id, clientId).get();

    const answer = await axios.get(`${crm.baseUrl}/crm/v3/properties/contacts`, { headers: { authorization: `Bearer ${token}` } });
    expect(answer.status).toBe(200);
    const portal = await load(id);
    expect(box.open(portal.crmOAuthToken!.accessTokenSealed, sealedFor.crmConnection(id, 'access-token'))).toBe(token);
    expect(portal.crmOAuthToken!.expiresAt).toBe(serviceNow + 1800 * 1000);
    // The built-in CRM keeps the refresh token, as the hosted CRM does.
    expect(connections().connectionOf(portal)).toMatchObject({ auth: { refreshToken } });
  });

  it('when the CRM expired the token the service still holds fresh, then the portal’s CRM client gets 401, a new token, and its request through', async () => {
    const { portalId: id } = await oauthPortal();
    const client = connections().clientFor(await load(id));
    await client.listProperties('CONTACT');
    const first = (await load(id)).crmOAuthToken!.accessTokenSealed;

    crmNow += 1800 * 1000;
    const properties = await client.listProperties('CONTACT');

    expect(properties.map((property) => property.name)).toContain('email');
    expect((await load(id)).crmOAuthToken!.accessTokenSealed).not.toBe(first);
  });

  it('when the client was registered again (a new refresh token), then the refresh is refused as the connection’s credentials (401 CRM_AUTH), naming the hosted reason', async () => {
    const { portalId: id, clientId } = await oauthPortal();
    await crm.oauthGrant(id, clientId, clientSecret);

    const refused = await tokensOf(id, clientId)
      .get()
      .catch((error: unknown) => error);
    expect(refused).toMatchObject({ status: 401, category: 'CRM_AUTH', refusesCredentials: true, message: expect.stringContaining('invalid_grant') });
  });
});
