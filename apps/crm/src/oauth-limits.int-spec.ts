import axios from 'axios';
import { Client } from '@hubspot/api-client';
import { startTestCrmServer, type TestCrmServer } from './crm-server-fixture';

const admin = { headers: { authorization: 'Bearer admin-token' } };

/**
 * The hosted CRM's limits on an OAuth call: counted in the rolling window, but "OAuth authenticated
 * calls will not include X-HubSpot-RateLimit-Daily or X-HubSpot-RateLimit-Daily-Remaining because
 * there is no daily limit for these calls" (its changelog). A private app's token keeps the daily cap.
 */
describe('built-in CRM limits on OAuth calls', () => {
  let crm: TestCrmServer;
  const portalId = 7_400;
  const staticToken = 'static-token-of-portal-7400';
  let accessToken: string;

  beforeAll(async () => {
    crm = await startTestCrmServer('crm-oauth-limits');
    await crm.account(portalId, staticToken);
    await axios.put(`${crm.baseUrl}/crm/admin/v1/accounts/${portalId}/limits`, { burstPer10s: 100, dailyCap: 2, timeZone: 'UTC', searchPerSecond: 4 }, admin);
    const refreshToken = await crm.oauthGrant(portalId, 'client-7400', 'secret-7400');
    const tokens = new Client({ basePath: crm.baseUrl, numberOfApiCallRetries: 0 }).oauth.tokensApi;
    accessToken = (await tokens.create('refresh_token', undefined, undefined, 'client-7400', 'secret-7400', refreshToken)).accessToken;
  });

  afterAll(() => crm?.close());

  const list = (token: string) =>
    axios.get(`${crm.baseUrl}/crm/v3/objects/contacts?limit=1`, { headers: { authorization: `Bearer ${token}` }, validateStatus: () => true });

  it('when OAuth calls go past the daily cap, then each is answered without daily headers and none counts against the cap; a static token then has the whole cap', async () => {
    for (let call = 0; call < 3; call++) {
      const answer = await list(accessToken);
      expect(answer.status).toBe(200);
      expect(answer.headers['x-hubspot-ratelimit-remaining']).toBe(String(100 - call - 1));
      expect(answer.headers).not.toHaveProperty('x-hubspot-ratelimit-daily');
      expect(answer.headers).not.toHaveProperty('x-hubspot-ratelimit-daily-remaining');
    }

    const first = await list(staticToken);
    expect(first.status).toBe(200);
    expect(first.headers).toMatchObject({
      'x-hubspot-ratelimit-daily': '2',
      'x-hubspot-ratelimit-daily-remaining': '1',
      'x-hubspot-ratelimit-remaining': '96',
    });
    await list(staticToken);
    const third = await list(staticToken);
    expect(third.status).toBe(429);
    expect(third.data).toMatchObject({ policyName: 'DAILY' });
  });
});
