import axios from 'axios';
import { TestStack } from '@ecomm-sync/testing';
import { runAdminCommand, UsageError } from './admin-commands';

describe('ecomm-sync admin … list against the gateway as a process (real MongoDB)', () => {
  let stack: TestStack;

  beforeAll(async () => {
    stack = await TestStack.start({ apps: ['crm', 'gateway'] });
  });

  afterAll(async () => {
    await stack?.stop();
  });

  const admin = (path: string, body: object) => axios.post(`${stack.gatewayUrl}${path}`, body, { headers: { authorization: `Bearer ${stack.adminToken}` } });

  it('when a listing takes several pages, then the command asks for each in turn and prints every record once, in order', async () => {
    const created: number[] = [];
    for (const name of ['Listed one', 'Listed two', 'Listed three']) created.push((await admin('/admin/v1/portals', { name })).data.portalId);
    const developer = (await admin('/admin/v1/developers', { name: 'Lister' })).data.developerId;
    for (const name of ['App one', 'App two', 'App three']) await admin('/admin/v1/apps', { developerId: developer, name });

    const portals = JSON.parse(await runAdminCommand(stack.gatewayUrl, stack.adminToken, ['portals', 'list', '--page-size', '1'])).results;
    const apps = JSON.parse(await runAdminCommand(stack.gatewayUrl, stack.adminToken, ['apps', 'list', String(developer), '--page-size', '2'])).results;

    const ids = portals.map((portal: { portalId: number }) => portal.portalId);
    expect(ids.filter((id: number) => created.includes(id))).toEqual(created);
    expect(new Set(ids).size).toBe(ids.length);
    expect(apps.map((app: { name: string }) => app.name).sort()).toEqual(['App one', 'App three', 'App two']);
  });

  it('when --page-size is not a count from 1 to 1000, then it is a usage error and nothing is asked', async () => {
    for (const size of ['0', '1001', 'ten'])
      await expect(runAdminCommand('http://127.0.0.1:9', 'token', ['portals', 'list', '--page-size', size])).rejects.toThrow(UsageError);
  });
});
