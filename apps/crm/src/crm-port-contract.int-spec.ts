import { HttpCrmClient } from '@ecomm-sync/crm-client';
import { describeCrmPortContract } from '@ecomm-sync/testing';
import { startTestCrmServer, type TestCrmServer } from './crm-server-fixture';

/** The contract FakeCrm passes (its spec), by HttpCrmClient against the built-in CRM over HTTP: each case gets a portal of its own. */
describe('HttpCrmClient against the built-in CRM', () => {
  let crm: TestCrmServer;
  let portalId = 700;

  beforeAll(async () => {
    crm = await startTestCrmServer('crm-contract');
  });

  afterAll(() => crm?.close());

  describeCrmPortContract('HttpCrmClient', async () => {
    const token = `contract-token-of-portal-${++portalId}`;
    await crm.account(portalId, token);
    return new HttpCrmClient({ baseUrl: crm.baseUrl, token, timeoutMs: 5_000, maxWaitMs: 0 });
  });
});
