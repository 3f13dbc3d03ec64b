import { DEFAULT_STORE_ID } from '@ecomm-sync/contracts';
import { DEMO_MAPPINGS } from '@ecomm-sync/provisioning';
import { TestStack } from '@ecomm-sync/testing';
import { createPortal } from './create-portal';

describe('ecomm-sync create-portal (the built-in CRM as a process, real MongoDB)', () => {
  let stack: TestStack;

  beforeAll(async () => {
    stack = await TestStack.start({ apps: ['crm'] });
  });

  afterAll(async () => {
    await stack?.stop();
  });

  it('when a portal is created for a first try, then it is installed, has its store and enabled settings, and its key works', async () => {
    const repositories = await stack.repositories();
    const config = { CRM_BASE_URL: stack.crmUrl, ADMIN_TOKEN: stack.adminToken, SECRETS_KEY: stack.setting('SECRETS_KEY')! };

    const { portalId, apiKey } = await createPortal(repositories, config, 'First try');

    const tenant = { portalId, appId: null };
    expect(await repositories.ecommerceInstalls.find(tenant)).toMatchObject({ installCompleted: true });
    expect(await repositories.stores.find(tenant, DEFAULT_STORE_ID)).toMatchObject({ id: DEFAULT_STORE_ID, label: 'Custom' });
    expect(await repositories.settings.get(tenant)).toMatchObject({ enabled: true, mappings: DEMO_MAPPINGS });
    expect(await repositories.credentials.resolve(apiKey)).toMatchObject({ portalId });
    const pipelines = await (await stack.connections()).clientFor((await repositories.portals.findById(portalId))!).listDealPipelines();
    expect(pipelines.map((pipeline) => pipeline.label)).toContainEqual(expect.stringMatching(/ecommerce/i));
  });
});
