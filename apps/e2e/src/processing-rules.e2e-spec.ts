import axios from 'axios';
import { aV2Message, aV2Submission, type TestPortal, TestStack, waitFor } from '@ecomm-sync/testing';
import { deadLetterCount } from './dead-letter-count';
import { gatewayClient, requireCrmId } from './gateway-client';
import { crmProperty } from '@ecomm-sync/domain';

describe('processing rules over the running stack', () => {
  let stack: TestStack;
  let portal: TestPortal;
  let client: ReturnType<typeof gatewayClient>;

  beforeAll(async () => {
    stack = await TestStack.start({ env: { LOG_LEVEL: 'warn' } });
    portal = await stack.createPortal();
    client = gatewayClient(stack, portal);
  });

  afterAll(async () => {
    await stack?.stop();
  });

  it('when a contact’s e-mail belongs to a contact created directly in the CRM, then it is linked to that contact', async () => {
    const [existing] = await stack.crm(portal).batchCreate('CONTACT', [{ properties: { email: 'direct@example.com', firstname: 'Made in the CRM' } }]);
    await client.putV2(
      aV2Submission('CONTACT', [aV2Message({ externalObjectId: 'links-by-mail', properties: { email: 'Direct@Example.com', lastname: 'Synced' } })]),
    );
    const linked = await client.processed('CONTACT', 'links-by-mail');
    expect(linked.crmId).toBe(existing.id);
  });

  it.each([
    ['CONTACT', 'no-email', 'MISSING_REQUIRED_PROPERTY', { firstname: 'Nobody' }, {}],
    ['CONTACT', 'bad-email', 'INVALID_EMAIL_ADDRESS', { email: 'not@valid' }, {}],
    ['DEAL', 'no-stage', 'MISSING_REQUIRED_PROPERTY', { dealname: 'No stage' }, {}],
    ['DEAL', 'bad-stage', 'INVALID_DEAL_STAGE', { dealname: 'Wrong stage', dealstage: 'closedwon' }, {}],
    ['DEAL', 'bad-date', 'ERROR_INVALID_DATE_PROPERTY', { dealname: 'Bad date', dealstage: 'processed', closedate: '2024-05-01' }, {}],
    ['CONTACT', 'unmapped', 'NO_MAPPINGS_DEFINED', { shoe_size: 38 }, {}],
  ] as const)('a %s %s gets %s, listed in v1 and v2', async (objectType, id, type, properties, associations) => {
    await client.putV2(aV2Submission(objectType, [aV2Message({ externalObjectId: id, properties, associations })]));
    const processed = await client.statusWhen(objectType, id, (s) => s.errors.length > 0, `the ${type} error of ${id}`);
    expect(processed.errors.map((error) => error.type)).toContain(type);
    const v1 = await client.http.get(`/v1/sync-errors?objectType=${objectType}&errorType=${type}`);
    expect(v1.data.results).toContainEqual(expect.objectContaining({ integratorObjectId: id, type, status: 'OPEN' }));
    const v2 = await client.http.get(`/v2/sync/errors/portal?objectType=${objectType}&errorType=${type}`);
    expect(v2.data.results).toContainEqual(expect.objectContaining({ externalObjectId: id, storeId: 'default', type, status: 'OPEN' }));
  });

  it('when a batch maps to and from names like Object.prototype members, then every contact in it is applied and nothing is dead-lettered', async () => {
    const own = await stack.createPortal();
    const ownClient = gatewayClient(stack, own);
    const prototypeNames = ['toString', 'constructor', '__proto__', 'hasOwnProperty', 'valueOf'];
    await stack.crm(own).createProperty('CONTACT', crmProperty('constructor', 'Constructor', 'string', { groupName: 'contactinformation' }));
    const settings = await ownClient.http.put('/v2/settings', {
      enabled: true,
      mappings: {
        CONTACT: {
          properties: [
            { externalPropertyName: 'email', crmPropertyName: 'email' },
            ...prototypeNames.map((name) => ({ externalPropertyName: `nick_${name}`, crmPropertyName: name })),
            { externalPropertyName: 'valueOf', crmPropertyName: 'firstname' },
            { externalPropertyName: 'hasOwnProperty', crmPropertyName: 'lastname' },
            { externalPropertyName: 'constructor', crmPropertyName: 'company' },
            { externalPropertyName: '__proto__', crmPropertyName: 'city' },
            { externalPropertyName: 'toString', crmPropertyName: 'phone' },
          ],
        },
        DEAL: { properties: [{ externalPropertyName: 'dealstage', crmPropertyName: 'dealstage' }] },
      },
    });
    expect([settings.status, settings.data]).toEqual([200, expect.anything()]);
    const proto = aV2Message({
      externalObjectId: 'proto-names',
      properties: {
        email: 'proto@example.com',
        valueOf: 'Val',
        hasOwnProperty: 'Own',
        constructor: 'Ctor',
        ['__proto__']: 'Proto',
        toString: 'Str',
        ...Object.fromEntries(prototypeNames.map((name) => [`nick_${name}`, `nick ${name}`])),
      },
    });
    const unrelated = ['plain-1', 'plain-2'].map((id) => aV2Message({ externalObjectId: id, properties: { email: `${id}@example.com` } }));
    await ownClient.putV2(aV2Submission('CONTACT', [unrelated[0], proto, unrelated[1]]));

    for (const { externalObjectId } of unrelated) requireCrmId((await ownClient.processed('CONTACT', externalObjectId)).crmId);
    const applied = await ownClient.processed('CONTACT', 'proto-names');
    const [object] = await stack
      .crm(own)
      .batchRead('CONTACT', [requireCrmId(applied.crmId)], ['email', 'firstname', 'lastname', 'company', 'city', 'phone', 'constructor']);
    expect(object.properties).toMatchObject({
      email: 'proto@example.com',
      firstname: 'Val',
      lastname: 'Own',
      company: 'Ctor',
      city: 'Proto',
      phone: 'Str',
      constructor: 'nick constructor',
    });
    expect(await deadLetterCount(stack)).toBe(0);
  });

  it('when an object is deleted, then its CRM object is archived; an older upsert is ignored and a newer one recreates it', async () => {
    const crm = (id: number | null) =>
      axios.get(`${stack.crmUrl}/crm/v3/objects/products/${requireCrmId(id)}`, {
        headers: { authorization: `Bearer ${portal.crmToken}` },
        validateStatus: () => true,
      });
    await client.putV2(aV2Submission('PRODUCT', [aV2Message({ externalObjectId: 'mortal', changedAt: 100, properties: { name: 'First' } })]));
    const first = await client.processed('PRODUCT', 'mortal');
    await client.putV2(aV2Submission('PRODUCT', [aV2Message({ externalObjectId: 'mortal', action: 'DELETE', changedAt: 200 })]));
    await waitFor(async () => (await crm(first.crmId)).status === 404, { message: 'the CRM product to be archived' });
    await client.statusWhen('PRODUCT', 'mortal', (s) => s.crmId === null, 'the status to show no CRM object');

    await client.putV2(aV2Submission('PRODUCT', [aV2Message({ externalObjectId: 'mortal', changedAt: 150, properties: { name: 'Too old' } })]));
    await client.putV2(aV2Submission('PRODUCT', [aV2Message({ externalObjectId: 'mortal', changedAt: 300, properties: { name: 'Second' } })]));
    const reborn = await client.statusWhen('PRODUCT', 'mortal', (s) => s.crmId !== null, 'the product to be recreated');
    expect(reborn.crmId).not.toBe(first.crmId);
    expect((await crm(reborn.crmId)).data.properties.name).toBe('Second');
  });

  it('when a portal has more errors than a page, then v2 pages with paging.next and v1 with limit and offset, newest first', async () => {
    const own = gatewayClient(stack, await stack.createPortal());
    const ids = ['page-1', 'page-2', 'page-3', 'page-4', 'page-5'];
    for (const id of ids) {
      await own.putV2(aV2Submission('CONTACT', [aV2Message({ externalObjectId: id, properties: { email: `not-an-email-${id}` } })]));
      await own.statusWhen('CONTACT', id, (s) => s.errors.length > 0, `the error of ${id}`);
    }
    const newestFirst = [...ids].reverse();

    const seen: string[] = [];
    let page = (await own.http.get('/v2/sync/errors/portal', { params: { limit: 2 } })).data;
    for (;;) {
      seen.push(...page.results.map((error: { externalObjectId: string }) => error.externalObjectId));
      if (!page.paging) break;
      expect(page.paging.next.link).toContain(`page=${page.paging.next.page}`);
      expect(page.paging.next.link).not.toContain('hapikey'); // the caller adds its credential
      page = (await own.http.get(page.paging.next.link)).data;
    }
    expect(seen).toEqual(newestFirst);

    const v1 = await own.http.get('/v1/sync-errors', { params: { limit: 2, offset: 2 } });
    expect(v1.data.results.map((error: { integratorObjectId: string }) => error.integratorObjectId)).toEqual(newestFirst.slice(2, 4));
  });
});
