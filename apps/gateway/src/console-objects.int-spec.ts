import type { Express } from 'express';
import request from 'supertest';
import type { Tenant } from '@ecomm-sync/contracts';
import { emptyObjectState, mergeMessages } from '@ecomm-sync/domain';
import { aSyncBatch, seedPortal } from '@ecomm-sync/testing';
import { startGatewayFixture, type GatewayFixture } from './gateway-fixture';

const PORTAL = 8301;
const KEY = 'pk-console-objects-8301';
const direct: Tenant = { portalId: PORTAL, appId: null };
const contact = (changedAt: number, properties: Record<string, string>) => ({ externalObjectId: 'c1', action: 'UPSERT' as const, changedAt, properties });

/** Issue 14, pages 3 and 4: the object inspector and the mappings checks over the real database (the matrix is in credentials.int-spec). */
describe('the console API for objects and mappings', () => {
  let fixture: GatewayFixture;
  let app: Express;

  beforeAll(async () => {
    fixture = await startGatewayFixture('test-console-objects');
    app = fixture.app;
    const { repositories } = fixture.database;
    await seedPortal(repositories, { portalId: PORTAL, apiKey: KEY });
    const first = aSyncBatch({ tenant: direct, storeId: 'web', receivedAt: 1_000, messages: [contact(100, { email: 'nope', work_email: 'ada@example.com' })] });
    const second = aSyncBatch({ tenant: direct, storeId: 'web', receivedAt: 2_000, messages: [contact(200, { email: 'still-nope' })] });
    await repositories.rawMessages.append(first);
    await repositories.rawMessages.append(second);
    const merged = mergeMessages(emptyObjectState(), [...first.messages, ...second.messages], 2_000).state;
    await repositories.objectStates.insertNew({ tenant: direct, storeId: 'web', objectType: 'CONTACT' }, [{ externalObjectId: 'c1', state: merged }]);
    await repositories.settings.put(direct, {
      enabled: true,
      importOnInstall: false,
      webhookUri: null,
      mappings: { CONTACT: [{ externalPropertyName: 'email', crmPropertyName: 'email', dataType: 'STRING' }] },
    });
    await repositories.syncErrors.record({ tenant: direct, storeId: 'web', objectType: 'CONTACT' }, [
      {
        externalObjectId: 'c1',
        rev: 1,
        settingsRev: 1,
        type: 'INVALID_EMAIL_ADDRESS',
        details: 'email is not a valid e-mail address [email: still-nope]',
        changedAt: 200,
        erroredAt: 2_500,
      },
    ]);
  });
  afterAll(() => fixture.close());

  const inspect = (query: string) => request(app).get(`/console/api/v1/objects?hapikey=${KEY}&${query}`);

  it('when an object is inspected, then it shows every message with its changedAt, the merged state, the mapping in force and the open error', async () => {
    const { body } = await inspect('storeId=web&objectType=CONTACT&externalObjectId=c1').expect(200);
    expect(body).toMatchObject({
      portalId: PORTAL,
      appId: null,
      storeId: 'web',
      objectType: 'CONTACT',
      externalObjectId: 'c1',
      status: 'failed',
      crm: null,
      moreMessages: false,
    });
    expect(body.messages.map((m: { changedAt: number; receivedAt: number; properties: object }) => [m.receivedAt, m.changedAt, m.properties])).toEqual([
      [2_000, 200, { email: 'still-nope' }],
      [1_000, 100, { email: 'nope', work_email: 'ada@example.com' }],
    ]);
    expect(body.merged).toEqual({
      live: true,
      associations: {},
      properties: { email: { value: 'still-nope', changedAt: 200 }, work_email: { value: 'ada@example.com', changedAt: 100 } },
    });
    expect(body.mapped).toEqual({ properties: { email: 'still-nope' }, associations: {}, problems: [] });
    expect(body.errors).toEqual([
      {
        type: 'INVALID_EMAIL_ADDRESS',
        status: 'OPEN',
        details: expect.stringContaining('still-nope'),
        changedAt: 200,
        erroredAt: 2_500,
        whatToDo: expect.stringContaining('fix the mapping'),
      },
    ]);
  });

  it.each([
    ['an object nothing was received for', 'storeId=web&objectType=CONTACT&externalObjectId=never', 404, /Nothing was received for CONTACT never in store web/],
    ['an object of another store', 'storeId=default&objectType=CONTACT&externalObjectId=c1', 404, /Nothing was received/],
    ['an unknown object type', 'storeId=web&objectType=ORDER&externalObjectId=c1', 400, /objectType must be one of/],
    ['no external id', 'storeId=web&objectType=CONTACT', 400, /externalObjectId must be an ASCII string/],
    [
      'an application not installed in the portal',
      'storeId=web&objectType=CONTACT&externalObjectId=c1&appId=999',
      404,
      /Application 999 is not installed in portal 8301/,
    ],
  ])('when the inspector is asked for %s (%s), then it answers %i saying why', async (_name, query, status, message) => {
    const { body } = await inspect(query).expect(status);
    expect(body).toEqual({ status: 'error', message: expect.stringMatching(message), requestId: expect.any(String) });
  });

  const mapping = (externalPropertyName: string, crmPropertyName: string) => ({ externalPropertyName, crmPropertyName });
  it.each([
    [
      'enabled settings that map email',
      { enabled: true, mappings: { CONTACT: { properties: [mapping('work_email', 'email')] }, DEAL: { properties: [mapping('stage', 'dealstage')] } } },
      { ok: true, problem: null },
    ],
    [
      'enabled settings that map no email',
      { enabled: true, mappings: { CONTACT: { properties: [mapping('first', 'firstname')] } } },
      { ok: false, problem: expect.stringContaining('Settings cannot be enabled: mappings.CONTACT must map a property to email') },
    ],
    [
      'a property mapped twice',
      { enabled: false, mappings: { CONTACT: { properties: [mapping('a', 'email'), mapping('a', 'firstname')] } } },
      { ok: false, problem: expect.stringContaining('maps the property "a" twice') },
    ],
    ['paused settings with no mappings', { enabled: false }, { ok: true, problem: null }],
  ])('when a draft with %s is checked, then the enabling rules answer as the settings endpoint would', async (_name, draft, expected) => {
    const { body } = await request(app).post(`/console/api/v1/mappings/validate?hapikey=${KEY}`).send(draft).expect(200);
    expect(body).toEqual(expected);
    const saved = await request(app).put(`/extensions/ecomm/v2/settings?hapikey=${KEY}`).send(draft);
    expect(saved.status).toBe(expected.ok ? 200 : 400);
  });

  it.each([
    ['a draft of the wrong shape', '/console/api/v1/mappings/validate', { enabled: 'yes' }, /enabled/],
    [
      'a dry run with neither a stored id nor a message',
      '/console/api/v1/mappings/dry-run',
      { settings: {}, storeId: 'web', objectType: 'CONTACT' },
      /either externalObjectId .* or message/,
    ],
    [
      'a dry run with both',
      '/console/api/v1/mappings/dry-run',
      { settings: {}, storeId: 'web', objectType: 'CONTACT', externalObjectId: 'c1', message: { externalObjectId: 'x', properties: {} } },
      /not both/,
    ],
    [
      'a dry run with settings of the wrong shape',
      '/console/api/v1/mappings/dry-run',
      { settings: { mappings: { ORDER: {} } }, storeId: 'web', objectType: 'CONTACT', externalObjectId: 'c1' },
      /body\.settings/,
    ],
  ])('when the mappings page sends %s, then it answers 400 in the error shape', async (_name, path, body, message) => {
    const response = await request(app).post(`${path}?hapikey=${KEY}`).send(body).expect(400);
    expect(response.body).toEqual({ status: 'error', message: expect.stringMatching(message), requestId: expect.any(String) });
  });
});
