import axios from 'axios';
import { aV1Contact, aV2Message, aV2Submission, type TestPortal, TestStack } from '@ecomm-sync/testing';
import { gatewayClient, requireCrmId } from './gateway-client';

describe('sync flow over the running stack (every app its own process)', () => {
  let stack: TestStack;
  let portal: TestPortal;
  let client: ReturnType<typeof gatewayClient>;

  beforeAll(async () => {
    stack = await TestStack.start();
    portal = await stack.createPortal();
    client = gatewayClient(stack, portal);
  });

  afterAll(async () => {
    await stack?.stop();
  });

  const crmObject = async (type: string, id: number | null, associations = '') =>
    (
      await axios.get(`${stack.crmUrl}/crm/v3/objects/${type}/${requireCrmId(id)}?associations=${associations}`, {
        headers: { authorization: `Bearer ${portal.crmToken}` },
      })
    ).data;

  it('when v1 sends contacts, a product, a deal with a contact and a line item, then all reach the CRM linked together', async () => {
    await client.putV1('CONTACT', [aV1Contact({ integratorObjectId: 'v1-c1', propertyNameToValues: { email: 'grace@example.com', firstname: 'Grace' } })]);
    await client.putV1('PRODUCT', [
      { integratorObjectId: 'v1-p1', action: 'UPSERT', changeOccurredTimestamp: 1, propertyNameToValues: { name: 'Compiler', price: '99.5' } },
    ]);
    const contact = await client.processed('CONTACT', 'v1-c1');
    await client.processed('PRODUCT', 'v1-p1');
    await client.putV1('DEAL', [
      {
        integratorObjectId: 'v1-d1',
        action: 'UPSERT',
        changeOccurredTimestamp: 1,
        propertyNameToValues: { dealname: 'Order 1', dealstage: 'checkout_completed', amount: 99.5, hs_assoc__contact_ids: 'v1-c1,unknown-contact' },
      },
    ]);
    const deal = await client.processed('DEAL', 'v1-d1');
    expect(deal.errors).toEqual([]); // the unknown contact is ignored without an error (SPEC.md, Associations)
    await client.putV1('LINE_ITEM', [
      {
        integratorObjectId: 'v1-l1',
        action: 'UPSERT',
        changeOccurredTimestamp: 1,
        propertyNameToValues: { quantity: 1, price: 99.5, hs_assoc__deal_id: 'v1-d1', hs_assoc__product_id: 'v1-p1' },
      },
    ]);
    const lineItem = await client.processed('LINE_ITEM', 'v1-l1');

    const v1Status = await client.http.get('/v1/sync-status/LINE_ITEM/v1-l1');
    expect(v1Status.data).toEqual({
      objectType: 'LINE_ITEM',
      externalObjectId: 'v1-l1',
      lastProcessedAt: expect.any(Number),
      numErrors: 0,
      crmId: lineItem.crmId,
    });

    const crmLineItem = await crmObject('line_items', lineItem.crmId, 'deals,products');
    expect(crmLineItem.properties).toMatchObject({ quantity: '1', price: '99.5', ip__ecomm_bridge__ecomm_synced: 'true' });
    expect(crmLineItem.properties).not.toHaveProperty('hs_assoc__deal_id');
    expect(crmLineItem.associations.deals.results).toEqual([{ id: String(deal.crmId), type: 'default' }]);
    // In the CRM the deal is in the ecommerce pipeline, in the stage the CRM gave the id of SPEC's
    // checkout_completed; through our adapter it reads as the sender sent it.
    const crmDeal = await crmObject('deals', deal.crmId, 'contacts');
    const [pipeline] = (await stack.crm(portal).listDealPipelines()).filter((candidate) => candidate.label === 'Ecommerce Pipeline');
    const completed = pipeline.stages.find((stage) => stage.label === 'Checkout Completed')!;
    expect(crmDeal.properties).toMatchObject({ dealname: 'Order 1', dealstage: completed.id, pipeline: pipeline.id, amount: '99.5' });
    expect((await stack.crm(portal).batchRead('DEAL', [deal.crmId!], ['dealstage']))[0].properties.dealstage).toBe('checkout_completed');
    expect(crmDeal.associations.contacts.results).toEqual([{ id: String(contact.crmId), type: 'default' }]);
  });

  it('when v2 sends the same kinds of objects with an associations map, then they reach the CRM', async () => {
    await client.putV2(aV2Submission('CONTACT', [aV2Message({ externalObjectId: 'v2-c1', properties: { email: 'linus@example.com', lastname: 'Torvalds' } })]));
    await client.putV2(aV2Submission('PRODUCT', [aV2Message({ externalObjectId: 'v2-p1', properties: { name: 'Kernel', price: 0 } })]));
    await client.putV2(
      aV2Submission('DEAL', [
        aV2Message({ externalObjectId: 'v2-d1', properties: { dealname: 'Order 2', dealstage: 'processed' }, associations: { CONTACT: ['v2-c1'] } }),
      ]),
    );
    const contact = await client.processed('CONTACT', 'v2-c1');
    const product = await client.processed('PRODUCT', 'v2-p1');
    const deal = await client.processed('DEAL', 'v2-d1');
    await client.putV2(
      aV2Submission('LINE_ITEM', [
        aV2Message({ externalObjectId: 'v2-l1', properties: { quantity: '3' }, associations: { DEAL: ['v2-d1'], PRODUCT: ['v2-p1'] } }),
      ]),
    );
    const lineItem = await client.processed('LINE_ITEM', 'v2-l1');

    expect(lineItem).toEqual({
      storeId: 'default',
      objectType: 'LINE_ITEM',
      externalObjectId: 'v2-l1',
      crmId: expect.any(Number),
      lastProcessedAt: expect.any(Number),
      errors: [],
    });
    const crmLineItem = await crmObject('line_items', lineItem.crmId, 'deals');
    expect(crmLineItem.associations.deals.results[0].id).toBe(String(deal.crmId));
    // The hosted CRM ties a line item to its product by the product's CRM id in hs_product_id.
    expect(crmLineItem.properties.hs_product_id).toBe(String(product.crmId));
    const crmDeal = await crmObject('deals', deal.crmId, 'contacts');
    expect(crmDeal.associations.contacts.results[0].id).toBe(String(contact.crmId));
  });

  it('when a line item arrives before its deal and product, then it waits with an open error and applies once they arrive', async () => {
    await client.putV2(
      aV2Submission('LINE_ITEM', [
        aV2Message({ externalObjectId: 'early-li', properties: { quantity: '1' }, associations: { DEAL: ['late-deal'], PRODUCT: ['late-product'] } }),
      ]),
    );
    const waiting = await client.statusWhen('LINE_ITEM', 'early-li', (s) => s.errors.length > 0, 'the waiting line item error');
    expect(waiting).toMatchObject({ crmId: null, errors: [expect.objectContaining({ type: 'INVALID_ASSOCIATION_PROPERTY', status: 'OPEN' })] });

    await client.putV2(aV2Submission('PRODUCT', [aV2Message({ externalObjectId: 'late-product', properties: { name: 'Late' } })]));
    await client.putV2(aV2Submission('DEAL', [aV2Message({ externalObjectId: 'late-deal', properties: { dealname: 'Late', dealstage: 'checkout_pending' } })]));
    const applied = await client.statusWhen('LINE_ITEM', 'early-li', (s) => s.crmId !== null, 'the line item to apply after its deal and product');
    expect(applied.errors).toEqual([]);
    const resolved = await client.http.get('/v2/sync/errors/portal?includeResolved=true&objectType=LINE_ITEM');
    expect(resolved.data.results).toContainEqual(
      expect.objectContaining({ externalObjectId: 'early-li', type: 'INVALID_ASSOCIATION_PROPERTY', status: 'RESOLVED' }),
    );
  });

  it('when a contact has an invalid e-mail, then its error record is listed in v1 and v2 and the status shows it', async () => {
    await client.putV1('CONTACT', [
      aV1Contact({ integratorObjectId: 'bad-mail', changeOccurredTimestamp: 1_700_000_000_777, propertyNameToValues: { email: 'not-an-address' } }),
    ]);
    const status = await client.processed('CONTACT', 'bad-mail');
    expect(status.crmId).toBeNull();
    expect(status.errors).toEqual([
      expect.objectContaining({
        portalId: portal.portalId,
        storeId: 'default',
        objectType: 'CONTACT',
        externalObjectId: 'bad-mail',
        type: 'INVALID_EMAIL_ADDRESS',
        changedAt: 1_700_000_000_777,
        status: 'OPEN',
      }),
    ]);
    const v1Errors = await client.http.get('/v1/sync-errors');
    expect(v1Errors.data.results).toContainEqual({
      portalId: portal.portalId,
      objectType: 'CONTACT',
      integratorObjectId: 'bad-mail',
      changeOccurredTimestamp: 1_700_000_000_777,
      errorTimestamp: expect.any(Number),
      type: 'INVALID_EMAIL_ADDRESS',
      details: expect.stringContaining('[email: not-an-address]'),
      status: 'OPEN',
    });
    const v2Errors = await client.http.get('/v2/sync/errors/portal');
    expect(v2Errors.data.results.map((error: { externalObjectId: string }) => error.externalObjectId)).toContain('bad-mail');
    const v1Status = await client.http.get('/v1/sync-status/CONTACT/bad-mail');
    // No CRM object yet: crmId is null, as in SPEC's status object and v2 (issue 26, item 11).
    expect(v1Status.data).toMatchObject({ numErrors: 1, crmId: null });
  });

  it('when the e-mail is corrected, then the contact is created and its error is resolved', async () => {
    await client.putV1('CONTACT', [
      aV1Contact({ integratorObjectId: 'bad-mail', changeOccurredTimestamp: 1_700_000_000_999, propertyNameToValues: { email: 'fixed@example.com' } }),
    ]);
    const status = await client.statusWhen('CONTACT', 'bad-mail', (s) => s.crmId !== null, 'CONTACT bad-mail to get a CRM id');
    expect(status.errors).toEqual([]);
    const resolved = await client.http.get('/v1/sync-errors?showResolvedErrors=true');
    expect(resolved.data.results.find((error: { integratorObjectId: string }) => error.integratorObjectId === 'bad-mail').status).toBe('RESOLVED');
  });

  it.each([
    ['no credential', 401, () => axios.put(`${stack.gatewayUrl}/extensions/ecomm/v1/sync-messages/CONTACT`, [aV1Contact()], { validateStatus: () => true })],
    ['an unknown object type', 400, () => client.http.put('/v1/sync-messages/ORDER', [aV1Contact()])],
    [
      'more than 200 messages',
      400,
      () =>
        client.http.put(
          '/v1/sync-messages/CONTACT',
          Array.from({ length: 201 }, () => aV1Contact()),
        ),
    ],
    ['a body that is not JSON', 415, () => client.http.put('/v1/sync-messages/CONTACT', 'a,b', { headers: { 'content-type': 'text/csv' } })],
    [
      'a body over the size limit',
      413,
      () => client.http.put('/v1/sync-messages/CONTACT', [aV1Contact({ propertyNameToValues: { note: 'x'.repeat(5_000_000) } })]),
    ],
    ['an unknown path', 404, () => client.http.get('/v3/anything')],
  ])('when a request has %s, then the gateway answers %i with the error body', async (_name, status, send) => {
    const response = await send();
    expect(response.status).toBe(status);
    expect(response.data).toEqual({ status: 'error', message: expect.any(String), requestId: expect.stringMatching(/^[a-z0-9]{32}$/) });
  });
});
