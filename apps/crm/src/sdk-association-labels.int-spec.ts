import { Client } from '@hubspot/api-client';
import * as associations from '@hubspot/api-client/lib/codegen/crm/associations/v4';
import * as schema from '@hubspot/api-client/lib/codegen/crm/associations/v4/schema';
import { startTestCrmServer, type TestCrmServer } from './crm-server-fixture';

const { AssociationSpecAssociationCategoryEnum: Category } = associations;

/** The SDK's error of a refused call: its HTTP status and its typed body (the SDK's ModelError). */
async function refusal(call: Promise<unknown>): Promise<{ code: number; body: schema.ModelError }> {
  try {
    await call;
  } catch (error) {
    return error as { code: number; body: schema.ModelError };
  }
  throw new Error('the call was expected to be refused, and it resolved');
}

/** The vendor's error body of a 404 naming the type id. */
const notFound = (typeId: number) => ({
  code: 404,
  body: expect.objectContaining({
    category: 'OBJECT_NOT_FOUND',
    message: expect.stringContaining(`type id ${typeId}`),
    correlationId: expect.any(String),
    errors: [expect.objectContaining({ message: expect.stringContaining(`type id ${typeId}`) })],
    context: {},
  }),
});

/**
 * The vendor's SDK, unmodified, renaming and deleting association labels in the built-in CRM
 * (`definitionsApi.update` and `remove`, decision 0047's addendum). Each case has a portal of its own.
 */
describe('the hosted CRM vendor SDK against the built-in CRM: association labels renamed and deleted', () => {
  let crm: TestCrmServer;
  let portalId = 2600;

  beforeAll(async () => {
    crm = await startTestCrmServer('crm-sdk-labels');
  });

  afterAll(() => crm?.close());

  /** A new portal's account, and the SDK pointed at it. */
  async function aPortal(): Promise<Client> {
    const token = `sdk-labels-token-of-portal-${++portalId}`;
    await crm.account(portalId, token);
    return new Client({ accessToken: token, basePath: crm.baseUrl, numberOfApiCallRetries: 0 });
  }

  const definitions = (client: Client) => client.crm.associations.v4.schema.definitionsApi;
  const listed = async (client: Client, from: string, to: string) =>
    (await definitions(client).getAll(from, to)).results.map((type) => [type.category, type.typeId, type.label ?? null]);
  const typesBetween = async (client: Client, from: string, id: string, to: string) =>
    (await client.crm.associations.v4.basicApi.getPage(from, id, to)).results.map((one) =>
      one.associationTypes.map((type) => [type.typeId, type.label ?? null]),
    );

  it('when a label is renamed through either direction, then getAll and the associations carrying it answer the new names, and its type ids stay', async () => {
    const client = await aPortal();
    const [buyer, buyerBack] = (await definitions(client).create('deals', 'contacts', { name: 'buyer', label: 'Buyer' })).results;
    const [manager, managedBack] = (await definitions(client).create('contacts', 'deals', { name: 'manager', label: 'Manager', inverseLabel: 'Managed deal' }))
      .results;
    const deal = await client.crm.objects.basicApi.create('deals', { properties: { dealname: 'Order' } });
    const contact = await client.crm.objects.basicApi.create('contacts', { properties: { email: 'rename@example.com' } });
    await client.crm.associations.v4.basicApi.create('deals', deal.id, 'contacts', contact.id, [
      { associationCategory: Category.UserDefined, associationTypeId: buyer.typeId },
    ]);

    const renamed = await definitions(client).update('deals', 'contacts', { associationTypeId: buyer.typeId, label: 'Payer' });
    expect(renamed).toBeUndefined();
    // Through the direction the label was not created in: `label` names that direction.
    await definitions(client).update('deals', 'contacts', { associationTypeId: managedBack.typeId, label: 'Owned deal' });

    expect(await listed(client, 'deals', 'contacts')).toEqual([
      ['HUBSPOT_DEFINED', 3, null],
      ['USER_DEFINED', buyer.typeId, 'Payer'],
      ['USER_DEFINED', managedBack.typeId, 'Owned deal'],
    ]);
    expect(await listed(client, 'contacts', 'deals')).toEqual([
      ['HUBSPOT_DEFINED', 4, null],
      ['USER_DEFINED', buyerBack.typeId, 'Payer'],
      ['USER_DEFINED', manager.typeId, 'Manager'],
    ]);
    expect(await typesBetween(client, 'deals', deal.id, 'contacts')).toEqual([
      [
        [3, null],
        [buyer.typeId, 'Payer'],
      ],
    ]);
  });

  it('when a label is deleted, then getAll leaves it out, the associations that carried it keep their default type both ways, and its name is free again with new type ids', async () => {
    const client = await aPortal();
    const [buyer, buyerBack] = (await definitions(client).create('deals', 'contacts', { name: 'buyer', label: 'Buyer' })).results;
    const [source] = (await definitions(client).create('line_items', 'deals', { name: 'source', label: 'Source order' })).results;
    const deal = await client.crm.objects.basicApi.create('deals', { properties: { dealname: 'Order' } });
    const contact = await client.crm.objects.basicApi.create('contacts', { properties: { email: 'delete@example.com' } });
    await client.crm.associations.v4.basicApi.create('deals', deal.id, 'contacts', contact.id, [
      { associationCategory: Category.UserDefined, associationTypeId: buyer.typeId },
    ]);

    // By the id of the other direction, seen from contacts: either direction's id names the label.
    const removed = await definitions(client).remove('contacts', 'deals', buyerBack.typeId);
    expect(removed).toBeUndefined();

    expect(await listed(client, 'deals', 'contacts')).toEqual([['HUBSPOT_DEFINED', 3, null]]);
    expect(await listed(client, 'line_items', 'deals')).toEqual([
      ['HUBSPOT_DEFINED', 20, null],
      ['USER_DEFINED', source.typeId, 'Source order'],
    ]);
    expect(await typesBetween(client, 'deals', deal.id, 'contacts')).toEqual([[[3, null]]]);
    expect(await typesBetween(client, 'contacts', contact.id, 'deals')).toEqual([[[4, null]]]);
    // Each object's associations with the other type, kept beside the objects (decision 56).
    const stored = await crm.connection
      .collection('crm_object_associations')
      .find({ _id: { $in: [`${deal.id}:contacts`, `${contact.id}:deals`] } } as object)
      .toArray();
    expect(Object.fromEntries(stored.map((links) => [links._id, links.labels]))).toEqual({ [`${deal.id}:contacts`]: [], [`${contact.id}:deals`]: [] });
    // An association can no longer name it.
    expect(
      await refusal(
        client.crm.associations.v4.basicApi.create('deals', deal.id, 'contacts', contact.id, [
          { associationCategory: Category.UserDefined, associationTypeId: buyer.typeId },
        ]),
      ),
    ).toMatchObject({ code: 400 });

    const [again] = (await definitions(client).create('deals', 'contacts', { name: 'buyer', label: 'Buyer' })).results;
    expect([buyer.typeId, buyerBack.typeId, source.typeId, source.typeId + 1]).not.toContain(again.typeId);
    expect(await typesBetween(client, 'deals', deal.id, 'contacts')).toEqual([[[3, null]]]);
  });

  it('when the type id is no label of the pair (unknown, a default type, another pair’s, or deleted), then update and remove throw the vendor’s 404 and change nothing', async () => {
    const client = await aPortal();
    const [buyer] = (await definitions(client).create('deals', 'contacts', { name: 'buyer', label: 'Buyer' })).results;
    const [gone] = (await definitions(client).create('deals', 'contacts', { name: 'gone', label: 'Gone' })).results;
    await definitions(client).remove('deals', 'contacts', gone.typeId);

    for (const [from, to, typeId] of [
      ['deals', 'contacts', 4242],
      ['deals', 'contacts', 3],
      ['line_items', 'deals', buyer.typeId],
      ['contacts', 'deals', buyer.typeId],
      ['deals', 'contacts', gone.typeId],
    ] as const) {
      expect(await refusal(definitions(client).update(from, to, { associationTypeId: typeId, label: 'Renamed' }))).toMatchObject(notFound(typeId));
      expect(await refusal(definitions(client).remove(from, to, typeId))).toMatchObject(notFound(typeId));
    }
    expect(await listed(client, 'deals', 'contacts')).toEqual([
      ['HUBSPOT_DEFINED', 3, null],
      ['USER_DEFINED', buyer.typeId, 'Buyer'],
    ]);
  });

  it("when another portal renames or deletes a label by the same type id, then it gets 404 and the first portal's label is untouched", async () => {
    const owner = await aPortal();
    const other = await aPortal();
    const [buyer] = (await definitions(owner).create('deals', 'contacts', { name: 'buyer', label: 'Buyer' })).results;
    const [othersOwn] = (await definitions(other).create('contacts', 'deals', { name: 'buyer', label: 'Their buyer' })).results;
    // Type ids are the portal's own: the other portal's first label has the same id, from the other type.
    expect(othersOwn.typeId).toBe(buyer.typeId);

    expect(await refusal(definitions(other).update('deals', 'contacts', { associationTypeId: buyer.typeId, label: 'Hijacked' }))).toMatchObject(
      notFound(buyer.typeId),
    );
    expect(await refusal(definitions(other).remove('deals', 'contacts', buyer.typeId))).toMatchObject(notFound(buyer.typeId));
    await definitions(other).remove('contacts', 'deals', othersOwn.typeId);

    expect(await listed(owner, 'deals', 'contacts')).toEqual([
      ['HUBSPOT_DEFINED', 3, null],
      ['USER_DEFINED', buyer.typeId, 'Buyer'],
    ]);
    expect(await listed(other, 'contacts', 'deals')).toEqual([['HUBSPOT_DEFINED', 4, null]]);
  });
});
