import amqplib from 'amqplib';
import request from 'supertest';
import type { SettingsChangedMessage } from '@ecomm-sync/contracts';
import type { Database } from '@ecomm-sync/data-access';
import { namesOf } from '@ecomm-sync/messaging';
import { seedPortal, testInfrastructure } from '@ecomm-sync/testing';
import type { Express } from 'express';
import { startGatewayFixture, type GatewayFixture } from './gateway-fixture';

const { amqpUrl } = testInfrastructure();

/** What v1 and v2 answer for an owner with no settings stored: every field, disabled and empty. */
const v1Defaults = {
  enabled: false,
  importOnInstall: false,
  productSyncSettings: { properties: [] },
  dealSyncSettings: { properties: [] },
  lineItemSyncSettings: { properties: [] },
  contactSyncSettings: { properties: [] },
};

const v2Defaults = {
  enabled: false,
  webhookUri: null,
  mappings: { CONTACT: { properties: [] }, DEAL: { properties: [] }, PRODUCT: { properties: [] }, LINE_ITEM: { properties: [] } },
};

const v1Body = {
  enabled: true,
  importOnInstall: false,
  productSyncSettings: { properties: [{ propertyName: 'imageUrl', targetCrmProperty: 'ip__ecomm_bridge__image_url', dataType: 'AVATAR_IMAGE' }] },
  dealSyncSettings: { properties: [{ propertyName: 'stage', targetCrmProperty: 'dealstage', dataType: 'STRING' }] },
  lineItemSyncSettings: {
    properties: [
      { propertyName: 'order_id', targetCrmProperty: 'hs_assoc__deal_id', dataType: 'STRING' },
      { propertyName: 'product_id', targetCrmProperty: 'hs_assoc__product_id', dataType: 'STRING' },
    ],
  },
  contactSyncSettings: { properties: [{ propertyName: 'mail', targetCrmProperty: 'email', dataType: 'STRING' }] },
};

describe('settings endpoints against real MongoDB and RabbitMQ', () => {
  let fixture: GatewayFixture;
  let database: Database;
  let prefix: string;
  let app: Express;
  let portalKey: string;
  let developerKey: string;
  let appId: string;
  let nextPortal = 3000;
  const admin = (path: string, body: object) => request(app).post(path).set('authorization', 'Bearer admin').send(body);

  beforeAll(async () => {
    fixture = await startGatewayFixture('test-settings');
    ({ database, prefix, app } = fixture);
    const developer = await admin('/admin/v1/developers', { name: 'Dev' }).expect(201);
    developerKey = developer.body.apiKey;
    appId = (await admin('/admin/v1/apps', { developerId: developer.body.developerId, name: 'Shop connector' }).expect(201)).body.appId;
  });

  beforeEach(async () => {
    portalKey = `pk-settings-${nextPortal}`;
    await seedPortal(database.repositories, { portalId: nextPortal++, apiKey: portalKey });
  });

  afterAll(() => fixture.close());

  const asPortal = (method: 'get' | 'put' | 'delete' | 'post', path: string, query = '') => request(app)[method](`${path}?hapikey=${portalKey}${query}`);

  async function settingsEvents(): Promise<SettingsChangedMessage[]> {
    const connection = await amqplib.connect(amqpUrl);
    try {
      const channel = await connection.createChannel();
      const events: SettingsChangedMessage[] = [];
      for (
        let message = await channel.get(namesOf(prefix, 'mapper.settings-work').main, { noAck: true });
        message;
        message = await channel.get(namesOf(prefix, 'mapper.settings-work').main, { noAck: true })
      ) {
        events.push(JSON.parse(message.content.toString()));
      }
      return events;
    } finally {
      await connection.close();
    }
  }

  it('when v1 settings are PUT, then GET answers the same body, and PUT of that body changes nothing', async () => {
    const put = await asPortal('put', '/extensions/ecomm/v1/settings').send(v1Body).expect(200);
    expect(put.body).toEqual(v1Body);
    const got = await asPortal('get', '/extensions/ecomm/v1/settings').expect(200);
    expect(got.body).toEqual(v1Body);
    await asPortal('put', '/extensions/ecomm/v1/settings').send(got.body).expect(200, v1Body);
  });

  it('when v1 writes, then v2 reads the same settings, and the reverse', async () => {
    await asPortal('put', '/extensions/ecomm/v1/settings').send(v1Body).expect(200);
    const v2 = await asPortal('get', '/extensions/ecomm/v2/settings').expect(200);
    expect(v2.body).toEqual({
      enabled: true,
      webhookUri: null,
      mappings: {
        CONTACT: { properties: [{ externalPropertyName: 'mail', crmPropertyName: 'email', dataType: 'STRING' }] },
        DEAL: { properties: [{ externalPropertyName: 'stage', crmPropertyName: 'dealstage', dataType: 'STRING' }] },
        PRODUCT: { properties: [{ externalPropertyName: 'imageUrl', crmPropertyName: 'ip__ecomm_bridge__image_url', dataType: 'AVATAR_IMAGE' }] },
        LINE_ITEM: {
          properties: [
            { externalPropertyName: 'order_id', crmPropertyName: 'hs_assoc__deal_id', dataType: 'STRING' },
            { externalPropertyName: 'product_id', crmPropertyName: 'hs_assoc__product_id', dataType: 'STRING' },
          ],
        },
      },
    });
    await asPortal('put', '/extensions/ecomm/v2/settings')
      .send({
        enabled: false,
        webhookUri: 'https://shop.example.com/hook',
        mappings: { CONTACT: { properties: [{ externalPropertyName: 'e', crmPropertyName: 'email' }] } },
      })
      .expect(200);
    const v1 = await asPortal('get', '/extensions/ecomm/v1/settings').expect(200);
    expect(v1.body).toMatchObject({
      enabled: false,
      contactSyncSettings: { properties: [{ propertyName: 'e', targetCrmProperty: 'email', dataType: 'STRING' }] },
      dealSyncSettings: { properties: [] },
    });
    await asPortal('get', '/extensions/ecomm/v1/import-settings').expect(200, { importTriggerUri: 'https://shop.example.com/hook' });
  });

  it('when a v2 PUT carries importOnInstall (the one settings object clients send to both versions), then it is stored and v1 reads it', async () => {
    const v2Body = {
      enabled: false,
      importOnInstall: true,
      webhookUri: null,
      mappings: { CONTACT: { properties: [{ externalPropertyName: 'mail', crmPropertyName: 'email' }] } },
    };

    const put = await asPortal('put', '/extensions/ecomm/v2/settings').send(v2Body).expect(200);
    expect(put.body).toEqual({ enabled: false, webhookUri: null, mappings: expect.objectContaining({ CONTACT: expect.any(Object) }) });
    expect((await asPortal('get', '/extensions/ecomm/v1/settings').expect(200)).body.importOnInstall).toBe(true);

    await asPortal('put', '/extensions/ecomm/v2/settings')
      .send({ ...v2Body, importOnInstall: undefined })
      .expect(200);
    expect((await asPortal('get', '/extensions/ecomm/v1/settings').expect(200)).body.importOnInstall).toBe(true);
  });

  it('shows provided mappings only when asked', async () => {
    await asPortal('put', '/extensions/ecomm/v1/settings').send(v1Body).expect(200);
    const withProvided = await asPortal('get', '/extensions/ecomm/v1/settings', '&showProvidedProperties=true').expect(200);
    expect(withProvided.body.dealSyncSettings.properties).toContainEqual({
      propertyName: 'hs_assoc__contact_ids',
      targetCrmProperty: 'hs_assoc__contact_ids',
      dataType: 'STRING',
    });
    const v2 = await asPortal('get', '/extensions/ecomm/v2/settings', '&showProvidedMappings=true').expect(200);
    expect(v2.body.mappings.PRODUCT.properties[0]).toEqual({
      externalPropertyName: 'ip__ecomm_bridge__ecomm_synced',
      crmPropertyName: 'ip__ecomm_bridge__ecomm_synced',
      dataType: 'STRING',
    });
  });

  it('when a PUT names its show-provided flag with a value that is not a boolean, then it is a 400 that stored and re-applied nothing', async () => {
    await settingsEvents();
    for (const [path, flag, body] of [
      ['/extensions/ecomm/v1/settings', 'showProvidedProperties', v1Body],
      ['/extensions/ecomm/v2/settings', 'showProvidedMappings', { enabled: false, mappings: {} }],
    ] as const) {
      const refused = await asPortal('put', path, `&${flag}=yes`).send(body).expect(400);
      expect(refused.body.message).toBe(`Query parameter ${flag} must be true or false (or 1 or 0), got "yes"`);
    }
    await asPortal('get', '/extensions/ecomm/v1/settings').expect(200, v1Defaults);
    await asPortal('get', '/extensions/ecomm/v2/settings').expect(200, v2Defaults);
    expect(await settingsEvents()).toEqual([]);
  });

  it('when settings are enabled, then one event asks the mapper to re-apply every object type', async () => {
    await settingsEvents();
    await asPortal('put', '/extensions/ecomm/v1/settings').send(v1Body).expect(200);
    await asPortal('put', '/extensions/ecomm/v1/settings')
      .send({ ...v1Body, importOnInstall: true })
      .expect(200); // no mapping change
    const events = await settingsEvents();
    expect(events).toEqual([
      {
        kind: 'settings-changed',
        owner: expect.stringMatching(/^portal:\d+$/),
        settingsRev: expect.any(Number),
        objectTypes: ['CONTACT', 'DEAL', 'PRODUCT', 'LINE_ITEM'],
      },
    ]);
  });

  it('when no settings were ever stored, then v1 and v2 GET answer every field, disabled and empty, and a re-apply is refused as for disabled ones', async () => {
    await asPortal('get', '/extensions/ecomm/v1/settings').expect(200, v1Defaults);
    const provided = await asPortal('get', '/extensions/ecomm/v1/settings', '&showProvidedProperties=true').expect(200);
    expect(provided.body).toMatchObject({ enabled: false, importOnInstall: false });
    expect(provided.body.contactSyncSettings.properties).toContainEqual(expect.objectContaining({ targetCrmProperty: 'ip__ecomm_bridge__ecomm_synced' }));
    await asPortal('get', '/extensions/ecomm/v2/settings').expect(200, v2Defaults);
    const reapply = await asPortal('post', '/extensions/ecomm/v2/settings/reapply').expect(409);
    expect(reapply.body.message).toMatch(/No settings are stored for portal \d+ yet \(they read as disabled\); PUT them enabled/);
    expect(await settingsEvents()).toEqual([]);
  });

  it('when a client sends every optional settings field as null (blank values clear), then v1 and v2 PUT take them as left out', async () => {
    await asPortal('put', '/extensions/ecomm/v1/settings').send(v1Body).expect(200);
    const nulls = {
      enabled: null,
      importOnInstall: null,
      productSyncSettings: null,
      dealSyncSettings: { properties: null },
      lineItemSyncSettings: null,
      contactSyncSettings: null,
    };
    await asPortal('put', '/extensions/ecomm/v1/settings').send(nulls).expect(200, v1Defaults);

    const v2 = await asPortal('put', '/extensions/ecomm/v2/settings')
      .send({
        enabled: null,
        webhookUri: null,
        mappings: { CONTACT: { properties: [{ externalPropertyName: 'mail', crmPropertyName: 'email', dataType: null }] }, DEAL: null },
      })
      .expect(200);
    expect(v2.body.mappings.CONTACT.properties).toEqual([{ externalPropertyName: 'mail', crmPropertyName: 'email', dataType: 'STRING' }]);
    expect(v2.body.mappings.DEAL.properties).toEqual([]);
    expect(v2.body.enabled).toBe(false);
  });

  it('when settings are deleted, then GET answers the defaults again, and DELETE can be repeated', async () => {
    await asPortal('put', '/extensions/ecomm/v1/settings').send(v1Body).expect(200);
    await asPortal('delete', '/extensions/ecomm/v1/settings').expect(204);
    await asPortal('delete', '/extensions/ecomm/v2/settings').expect(204);
    await asPortal('get', '/extensions/ecomm/v1/settings').expect(200, v1Defaults);
    await asPortal('get', '/extensions/ecomm/v2/settings').expect(200, v2Defaults);
  });

  it('when v1 settings are deleted, then the v1 import address stays (import-settings, v2 webhookUri) and a v2 DELETE takes it', async () => {
    const address = 'https://shop.example.com/import';
    await asPortal('put', '/extensions/ecomm/v1/import-settings').send({ importTriggerUri: address }).expect(200);
    await asPortal('put', '/extensions/ecomm/v1/settings').send(v1Body).expect(200);

    await asPortal('delete', '/extensions/ecomm/v1/settings').expect(204);
    await asPortal('get', '/extensions/ecomm/v1/settings').expect(200, v1Defaults);
    await asPortal('get', '/extensions/ecomm/v1/import-settings').expect(200, { importTriggerUri: address });
    await asPortal('get', '/extensions/ecomm/v2/settings').expect(200, { ...v2Defaults, webhookUri: address });

    await asPortal('delete', '/extensions/ecomm/v2/settings').expect(204);
    await asPortal('get', '/extensions/ecomm/v1/import-settings').expect(200, { importTriggerUri: null });
    await asPortal('get', '/extensions/ecomm/v2/settings').expect(200, v2Defaults);
  });

  it('when only the import address is PUT, then no settings are made: GET answers the defaults and a re-apply is refused as with none stored', async () => {
    await asPortal('put', '/extensions/ecomm/v1/import-settings').send({ importTriggerUri: 'https://shop.example.com/import' }).expect(200);

    await asPortal('get', '/extensions/ecomm/v1/settings').expect(200, v1Defaults);
    const reapply = await asPortal('post', '/extensions/ecomm/v1/settings/reapply').expect(409);
    expect(reapply.body.message).toMatch(/No settings are stored/);
  });

  it.each([
    [
      'an unknown data type',
      { ...v1Body, contactSyncSettings: { properties: [{ propertyName: 'a', targetCrmProperty: 'email', dataType: 'COLOUR' }] } },
      /dataType must be one of STRING, NUMBER, DATETIME, AVATAR_IMAGE/,
    ],
    [
      'AVATAR_IMAGE on a deal',
      {
        ...v1Body,
        dealSyncSettings: { properties: [...v1Body.dealSyncSettings.properties, { propertyName: 'i', targetCrmProperty: 'x', dataType: 'AVATAR_IMAGE' }] },
      },
      /AVATAR_IMAGE is only for PRODUCT/,
    ],
    [
      'two AVATAR_IMAGE mappings',
      {
        ...v1Body,
        productSyncSettings: {
          properties: [...v1Body.productSyncSettings.properties, { propertyName: 'i2', targetCrmProperty: 'y', dataType: 'AVATAR_IMAGE' }],
        },
      },
      /only one is allowed per object type/,
    ],
    [
      'a mapping without a name',
      { ...v1Body, contactSyncSettings: { properties: [{ propertyName: '', targetCrmProperty: 'email', dataType: 'STRING' }] } },
      /propertyName must be a non-empty property name/,
    ],
    [
      'enabling without an email mapping',
      { ...v1Body, contactSyncSettings: { properties: [] } },
      /cannot be enabled: contactSyncSettings must map a property to email/,
    ],
    [
      'enabling without line-item associations',
      { ...v1Body, lineItemSyncSettings: { properties: [] } },
      /lineItemSyncSettings must map a property to hs_assoc__deal_id and hs_assoc__product_id/,
    ],
    [
      'one sender name twice',
      {
        ...v1Body,
        contactSyncSettings: {
          properties: [...v1Body.contactSyncSettings.properties, { propertyName: 'mail', targetCrmProperty: 'firstname', dataType: 'STRING' }],
        },
      },
      /maps the property "mail" twice/,
    ],
    ['an unknown field', { ...v1Body, mappings: {} }, /unknown field "mappings"/],
  ])('v1 refuses %s with 400', async (_name, body, message) => {
    const response = await asPortal('put', '/extensions/ecomm/v1/settings').send(body).expect(400);
    expect(response.body).toEqual({ status: 'error', message: expect.stringMatching(message), requestId: expect.any(String) });
  });

  it.each([
    [
      'enabling without a deal stage mapping',
      { enabled: true, mappings: { CONTACT: { properties: [{ externalPropertyName: 'm', crmPropertyName: 'email' }] } } },
      /mappings.DEAL must map a property to dealstage/,
    ],
    ['a webhookUri that is not a URI', { webhookUri: 'not a uri' }, /webhookUri must be an absolute http\(s\) URI or null/],
    ['an unknown object type', { mappings: { ORDER: { properties: [] } } }, /unknown field "ORDER"/],
  ])('v2 refuses %s with 400', async (_name, body, message) => {
    const response = await asPortal('put', '/extensions/ecomm/v2/settings').send(body).expect(400);
    expect(response.body.message).toMatch(message);
  });

  it('v2 enables without any line-item mapping (line items carry associations)', async () => {
    await asPortal('put', '/extensions/ecomm/v2/settings')
      .send({
        enabled: true,
        mappings: {
          CONTACT: { properties: [{ externalPropertyName: 'm', crmPropertyName: 'email' }] },
          DEAL: { properties: [{ externalPropertyName: 's', crmPropertyName: 'dealstage' }] },
        },
      })
      .expect(200);
  });

  it('import settings take an absolute http(s) URI', async () => {
    await asPortal('get', '/extensions/ecomm/v1/import-settings').expect(200, { importTriggerUri: null }); // none set yet
    await asPortal('put', '/extensions/ecomm/v1/import-settings')
      .send({ importTriggerUri: 'https://shop.example.com/import' })
      .expect(200, { importTriggerUri: 'https://shop.example.com/import' });
    await asPortal('get', '/extensions/ecomm/v1/import-settings').expect(200, { importTriggerUri: 'https://shop.example.com/import' });
    const refused = await asPortal('put', '/extensions/ecomm/v1/import-settings').send({ importTriggerUri: 'ftp://example.com' }).expect(400);
    expect(refused.body.message).toMatch(/importTriggerUri must be an absolute http\(s\) URI/);
  });

  it('setting the import address keeps the settings and their revision, and a v1 settings PUT keeps the address', async () => {
    await settingsEvents(); // what earlier tests left
    await asPortal('put', '/extensions/ecomm/v1/settings').send(v1Body).expect(200);
    const [{ settingsRev: before }] = await settingsEvents();
    await asPortal('put', '/extensions/ecomm/v1/import-settings').send({ importTriggerUri: 'https://shop.example.com/import' }).expect(200);
    await asPortal('get', '/extensions/ecomm/v1/settings').expect(200, v1Body);
    const changed = { ...v1Body, importOnInstall: true, contactSyncSettings: { properties: [] } };
    await asPortal('put', '/extensions/ecomm/v1/settings')
      .send({ ...changed, enabled: false })
      .expect(200);
    await asPortal('get', '/extensions/ecomm/v1/import-settings').expect(200, { importTriggerUri: 'https://shop.example.com/import' });
    // The address moved no revision: the next change's re-apply is the revision after the first.
    await asPortal('put', '/extensions/ecomm/v1/settings').send(v1Body).expect(200);
    expect((await settingsEvents()).map((event) => event.settingsRev)).toEqual([before + 2]);
  });

  it('application mode: the developer key with appId reads and writes the application settings, apart from the portal', async () => {
    const path = `/extensions/ecomm/v1/settings?hapikey=${developerKey}&appId=${appId}`;
    await request(app).put(path).send(v1Body).expect(200);
    await request(app).get(path).expect(200, v1Body);
    await asPortal('get', '/extensions/ecomm/v1/settings').expect(200, v1Defaults); // the portal's own settings are another thing
  });

  it.each([
    ['no credential', 401, () => request(app).get('/extensions/ecomm/v1/settings')],
    ['a wrong key', 401, () => request(app).get('/extensions/ecomm/v1/settings?hapikey=nope')],
    ['a portal key with appId', 403, () => request(app).get(`/extensions/ecomm/v1/settings?hapikey=${portalKey}&appId=${appId}`)],
    ['a developer key without appId', 400, () => request(app).get(`/extensions/ecomm/v1/settings?hapikey=${developerKey}`)],
    ['another developer’s application', 404, () => request(app).get(`/extensions/ecomm/v2/settings?hapikey=${developerKey}&appId=999999`)],
  ])('answers %s with %i', async (_name, status, send) => {
    const response = await send();
    expect(response.status).toBe(status);
    expect(response.body).toMatchObject({ status: 'error', message: expect.any(String) });
  });
});
