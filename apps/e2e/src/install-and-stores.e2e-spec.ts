import axios, { type AxiosInstance } from 'axios';
import { HttpCrmClient } from '@ecomm-sync/crm-client';
import { aV1Contact, aV2Message, aV2Submission, TestStack } from '@ecomm-sync/testing';
import { gatewayClient } from './gateway-client';
import { crmProperty } from '@ecomm-sync/domain';

const CONTACT_AND_DEAL_MAPPINGS = {
  CONTACT: { properties: [{ externalPropertyName: 'email', crmPropertyName: 'email' }] },
  DEAL: {
    properties: [
      { externalPropertyName: 'dealname', crmPropertyName: 'dealname' },
      { externalPropertyName: 'dealstage', crmPropertyName: 'dealstage' },
    ],
  },
};

/** Issue 5 end to end: install, uninstall, stores and the shared pipeline, each service its own process. */
describe('install, uninstall and stores over the running stack', () => {
  let stack: TestStack;
  let admin: AxiosInstance;

  beforeAll(async () => {
    stack = await TestStack.start({ apps: ['crm', 'gateway', 'mapper', 'applier'] });
    admin = axios.create({ baseURL: `${stack.gatewayUrl}/admin/v1`, headers: { authorization: `Bearer ${stack.adminToken}` } });
  });

  afterAll(async () => {
    await stack?.stop();
  });

  /** A portal as the admin API makes it: a CRM account, nothing installed. */
  async function newPortal(pipelineLimit?: number) {
    const { portalId, apiKey } = (await admin.post('/portals', pipelineLimit === undefined ? {} : { pipelineLimit })).data;
    const portal = await (await stack.repositories()).portals.findById(portalId);
    const crmToken = (await stack.connections()).builtinToken(portal!);
    const crm = new HttpCrmClient({ baseUrl: stack.crmUrl, token: crmToken });
    return { portalId, apiKey, crmToken, crm, client: gatewayClient(stack, { apiKey }) };
  }

  const ecommercePipelines = async (crm: HttpCrmClient) => (await crm.listDealPipelines()).filter((pipeline) => pipeline.label === 'Ecommerce Pipeline');
  const ecommerceProperties = async (crm: HttpCrmClient) =>
    (await crm.listProperties('DEAL')).filter((property) => property.name.startsWith('ip__ecomm_bridge__'));

  it('install → status → sync → uninstall → status, and what arrives while uninstalled applies after the next install', async () => {
    const { client, crm } = await newPortal();
    expect((await client.http.put('/v2/settings', { enabled: true, mappings: CONTACT_AND_DEAL_MAPPINGS })).status).toBe(200);
    expect((await client.http.get('/v1/installs/status')).data).toEqual({ installCompleted: false, ecommSettingsEnabled: true });

    expect((await client.http.post('/v1/installs')).status).toBe(204);
    expect((await client.http.post('/v1/installs')).status).toBe(204); // idempotent
    expect((await client.http.get('/v1/installs/status')).data).toEqual({ installCompleted: true, ecommSettingsEnabled: true });
    const [pipeline] = await ecommercePipelines(crm);
    // SPEC's six stages in order, each with the probability the CRM wants; the ids are the CRM's.
    expect(pipeline.stages.map((stage) => [stage.label, stage.metadata.probability])).toEqual([
      ['Checkout Abandoned', '0.0'],
      ['Checkout Pending', '0.2'],
      ['Checkout Completed', '1.0'],
      ['Processed', '1.0'],
      ['Shipped', '1.0'],
      ['Cancelled', '0.0'],
    ]);
    expect(pipeline.stages.every((stage) => /^\d+$/.test(stage.id))).toBe(true);
    expect((await ecommercePipelines(crm)).length).toBe(1);
    expect((await ecommerceProperties(crm)).map((property) => property.name)).toEqual(
      expect.arrayContaining(['ip__ecomm_bridge__ecomm_synced', 'ip__ecomm_bridge__abandoned_cart_url']),
    );
    expect((await client.http.get('/v2/stores')).data).toEqual({ results: [{ id: 'default', label: 'Custom' }] });

    await client.putV1('CONTACT', [aV1Contact({ integratorObjectId: 'installed-c1', propertyNameToValues: { email: 'one@example.com' } })]);
    expect((await client.processed('CONTACT', 'installed-c1')).crmId).not.toBeNull();

    expect((await client.http.post('/v1/installs/uninstall')).status).toBe(204);
    expect((await client.http.get('/v1/installs/status')).data).toEqual({ installCompleted: false, ecommSettingsEnabled: true });
    expect((await client.http.get('/v2/stores')).data).toEqual({ results: [] });
    const refused = await client.http.put('/v2/sync/messages', aV2Submission('CONTACT', [aV2Message()], 'default'));
    expect(refused.status).toBe(400);
    expect(refused.data.message).toMatch(/Unknown store "default"/);

    await client.putV1('CONTACT', [aV1Contact({ integratorObjectId: 'uninstalled-c2', propertyNameToValues: { email: 'two@example.com' } })]);
    const held = await client.statusWhen(
      'CONTACT',
      'uninstalled-c2',
      (s) => s.errors.some((e) => e.type === 'PORTAL_NOT_SYNC_ENABLED'),
      'the PORTAL_NOT_SYNC_ENABLED error',
    );
    expect(held.crmId).toBeNull();
    expect((await client.http.post('/v1/installs')).status).toBe(204);
    const applied = await client.statusWhen(
      'CONTACT',
      'uninstalled-c2',
      (s) => s.crmId !== null && s.errors.length === 0,
      'the held contact to apply after the new install',
    );
    expect(applied.crmId).not.toBeNull();
  });

  it('refuses the install of a portal at its pipeline limit with 409, and leaves nothing half-made', async () => {
    const { client, crm } = await newPortal(1); // the CRM's default sales pipeline uses the one allowed
    const response = await client.http.post('/v1/installs');
    expect(response.status).toBe(409);
    expect(response.data.message).toMatch(/maximum number of deal pipelines/);
    expect(await ecommercePipelines(crm)).toEqual([]);
    expect(await ecommerceProperties(crm)).toEqual([]);
    expect((await client.http.get('/v1/installs/status')).data).toEqual({ installCompleted: false, ecommSettingsEnabled: false });
    const store = await client.http.put('/v2/stores', { id: 'web', label: 'Web shop' });
    expect(store.status).toBe(409);
    expect((await client.http.get('/v2/stores')).data).toEqual({ results: [] }); // the store was not created
  });

  it('follows the pipeline limit the admin sets later', async () => {
    const { client, portalId } = await newPortal();
    expect((await admin.patch(`/portals/${portalId}`, { pipelineLimit: 1 })).status).toBe(204);
    expect((await client.http.post('/v1/installs')).status).toBe(409);
    expect((await admin.patch(`/portals/${portalId}`, { pipelineLimit: 2 })).status).toBe(204);
    expect((await client.http.post('/v1/installs')).status).toBe(204);
  });

  it('when portal A’s CRM token plants the sync key in portal B, then it is refused; a sync key planted without unique values makes the install refuse, until it is removed', async () => {
    const a = await newPortal();
    const b = await newPortal();
    const plantedKey = crmProperty('ip__ecomm_bridge__sync_key', 'planted', 'string', { groupName: 'contactinformation' });
    const crossPortal = await axios.post(
      `${stack.crmUrl}/crm/v3/properties/contacts`,
      { ...plantedKey, portalId: b.portalId },
      { headers: { authorization: `Bearer ${a.crmToken}` }, validateStatus: () => true },
    );
    expect([crossPortal.status, crossPortal.data.message]).toEqual([400, expect.stringMatching(/unknown field "portalId"/)]);
    expect((await b.crm.listProperties('CONTACT')).map((property) => property.name)).not.toContain(plantedKey.name);
    expect((await a.crm.listProperties('CONTACT')).map((property) => property.name)).not.toContain(plantedKey.name);

    await b.crm.createProperty('CONTACT', plantedKey); // as if planted before the fix, or by hand
    const refused = await b.client.http.post('/v1/installs');
    expect(refused.status).toBe(409);
    expect(refused.data.message).toMatch(/CONTACT "ip__ecomm_bridge__sync_key" is string, the service needs string with unique values/);
    expect(await ecommercePipelines(b.crm)).toEqual([]);
    expect((await b.client.http.get('/v1/installs/status')).data).toEqual({ installCompleted: false, ecommSettingsEnabled: false });

    await b.crm.deleteProperty('CONTACT', plantedKey.name);
    expect((await b.client.http.post('/v1/installs')).status).toBe(204);
    expect((await b.crm.listProperties('CONTACT')).find((property) => property.name === plantedKey.name)).toMatchObject({ hasUniqueValue: true });
  });

  it('refuses a portal that has a pipeline named ecommerce that is not the service’s', async () => {
    const { client, crm } = await newPortal();
    const theirs = await crm.createDealPipeline({
      label: 'Ecommerce',
      displayOrder: 1,
      stages: [{ label: 'New', displayOrder: 0, metadata: { probability: '0.1' } }],
    });
    const response = await client.http.post('/v1/installs');
    expect(response.status).toBe(409);
    expect(response.data.message).toContain(`pipeline named "Ecommerce" (id ${theirs.id})`);
    expect(await ecommerceProperties(crm)).toEqual([]);
  });

  it('the first store installs; a pipeline renamed in the CRM is reverted by the next store update; the pipeline is never duplicated', async () => {
    const { client, crm, portalId } = await newPortal();
    expect((await client.http.get('/v1/installs/status')).data.installCompleted).toBe(false);
    const created = await client.http.put('/v2/stores', { id: 'web', label: 'Web shop', adminUri: 'https://shop.example.com/admin' });
    expect(created.status).toBe(200);
    expect(created.data).toEqual({ id: 'web', label: 'Web shop', adminUri: 'https://shop.example.com/admin' });
    expect((await client.http.get('/v1/installs/status')).data.installCompleted).toBe(true);

    // A user renames the pipeline and a stage, and removes the others, in the CRM.
    const [installed] = await ecommercePipelines(crm);
    await crm.updateDealPipeline(installed.id, { label: 'Renamed by a user' });
    await crm.updateDealStage(installed.id, installed.stages[1].id, { label: 'Pending' });
    for (const stage of installed.stages.filter((_, index) => index !== 1)) await crm.archiveDealStage(installed.id, stage.id);
    // An admin address sent as null is left out: the update (a full replace) clears it.
    expect((await client.http.put('/v2/stores', { id: 'web', label: 'Web shop (EU)', adminUri: null })).data).toEqual({ id: 'web', label: 'Web shop (EU)' });
    const [pipeline] = await ecommercePipelines(crm);
    expect(pipeline.label).toBe('Ecommerce Pipeline');
    expect(pipeline.stages).toHaveLength(6);

    // A second integration in the same portal (an installed application) shares the pipeline.
    const developer = (await admin.post('/developers', {})).data;
    const application = (await admin.post('/apps', { developerId: developer.developerId, name: 'Second shop' })).data;
    const tokens = (await admin.post('/installs', { portalId, appId: application.appId })).data;
    const app = gatewayClient(stack, { accessToken: tokens.accessToken });
    expect((await app.http.put('/v2/stores', { id: 'app-store', label: 'App store' })).status).toBe(200);
    expect((await ecommercePipelines(crm)).length).toBe(1);
    // Every installed tenant has the store `default` (v1 traffic's), however it installed; an
    // application's is labelled with the application's name.
    const byId = (results: { id: string }[]) => [...results].sort((a, b) => a.id.localeCompare(b.id));
    expect(byId((await app.http.get('/v2/stores')).data.results)).toEqual([
      { id: 'app-store', label: 'App store' },
      { id: 'default', label: 'Second shop' },
    ]);
    expect(byId((await client.http.get('/v2/stores')).data.results).map((store) => store.id)).toEqual(['default', 'web']);
    // v1 and v2 side by side: v2 accepts the store that v1 writes into.
    expect(
      (
        await client.http.put('/v2/sync/messages', {
          storeId: 'default',
          objectType: 'PRODUCT',
          messages: [{ externalObjectId: 'side-by-side', action: 'UPSERT', properties: { name: 'Both' } }],
        })
      ).status,
    ).toBe(204);
  });

  it.each([
    ['a store without label', 400, 'put', '/v2/stores', { id: 'x' }, /label/],
    [
      'a store with an adminUri that is not a URI',
      400,
      'put',
      '/v2/stores',
      { id: 'x', label: 'X', adminUri: 'not a uri' },
      /adminUri must be an absolute http\(s\) URI/,
    ],
    ['a store id over 100 characters', 400, 'put', '/v2/stores', { id: 'x'.repeat(101), label: 'X' }, /id/],
    ['an unknown field', 400, 'put', '/v2/stores', { id: 'x', label: 'X', colour: 'red' }, /colour/],
    ['reading an unknown store', 404, 'get', '/v2/stores/nowhere', undefined, /No store "nowhere"/],
    ['deleting an unknown store', 404, 'delete', '/v2/stores/nowhere', undefined, /No store "nowhere"/],
  ] as const)('%s answers %i', async (_name, status, method, path, body, message) => {
    const { client } = await newPortal();
    const response = await client.http.request({ method, url: path, data: body });
    expect(response.status).toBe(status);
    expect(response.data).toEqual({ status: 'error', message: expect.stringMatching(message), requestId: expect.any(String) });
  });

  it('a new store takes sync at once, even after a refused sync to it; a deleted store is gone: reading it answers 404 and syncing to it 400', async () => {
    const { client } = await newPortal();
    expect((await client.http.put('/v2/sync/messages', aV2Submission('CONTACT', [aV2Message()], 'short-lived'))).status).toBe(400);
    expect((await client.http.put('/v2/stores', { id: 'short-lived', label: 'Pop-up' })).status).toBe(200);
    expect((await client.http.put('/v2/sync/messages', aV2Submission('CONTACT', [aV2Message()], 'short-lived'))).status).toBe(204);
    expect((await client.http.get('/v2/stores/short-lived')).data).toEqual({ id: 'short-lived', label: 'Pop-up' });
    expect((await client.http.delete('/v2/stores/short-lived')).status).toBe(204);
    expect((await client.http.get('/v2/stores/short-lived')).status).toBe(404);
    expect((await client.http.put('/v2/sync/messages', aV2Submission('CONTACT', [aV2Message()], 'short-lived'))).status).toBe(400);
  });

  it('takes the customer credential on every install and store endpoint: portal key, private-app token, OAuth token; refuses the rest', async () => {
    const { portalId, apiKey } = await newPortal();
    const privateApp = (await admin.post(`/portals/${portalId}/private-apps`, { name: 'ops' })).data.token;
    const developer = (await admin.post('/developers', {})).data;
    const application = (await admin.post('/apps', { developerId: developer.developerId, name: 'Matrix app' })).data;
    const { accessToken } = (await admin.post('/installs', { portalId, appId: application.appId })).data;
    const credentials: [string, { params?: object; headers?: object }, 'ok' | number][] = [
      ['none', {}, 401],
      ['a wrong key', { params: { hapikey: 'pk-wrong' } }, 401],
      ['a developer key', { params: { hapikey: developer.apiKey } }, 403],
      ['a developer key with appId', { params: { hapikey: developer.apiKey, appId: application.appId } }, 403],
      ['the portal key', { params: { hapikey: apiKey } }, 'ok'],
      ['a private-app token', { headers: { authorization: `Bearer ${privateApp}` } }, 'ok'],
      ['an OAuth token', { headers: { authorization: `Bearer ${accessToken}` } }, 'ok'],
    ];
    const calls: [string, string, object | undefined, number][] = [
      ['post', '/v1/installs', undefined, 204],
      ['put', '/v2/stores', { id: 'matrix', label: 'Matrix' }, 200],
      ['delete', '/v2/stores/matrix', undefined, 204],
      ['post', '/v1/installs/uninstall', undefined, 204],
    ];
    const http = axios.create({ baseURL: `${stack.gatewayUrl}/extensions/ecomm`, validateStatus: () => true });
    const outcomes: string[] = [];
    for (const [name, credential, expected] of credentials) {
      for (const [method, url, data, success] of calls) {
        const response = await http.request({ method, url, data, ...credential });
        outcomes.push(`${name} ${method} ${url}: ${response.status === (expected === 'ok' ? success : expected) ? 'as expected' : `got ${response.status}`}`);
      }
    }
    expect(outcomes.filter((outcome) => !outcome.endsWith('as expected'))).toEqual([]);
  });
});
