import { Client } from '@hubspot/api-client';
import * as associations from '@hubspot/api-client/lib/codegen/crm/associations/v4';
import * as schema from '@hubspot/api-client/lib/codegen/crm/associations/v4/schema';
import * as objects from '@hubspot/api-client/lib/codegen/crm/objects';
import * as properties from '@hubspot/api-client/lib/codegen/crm/properties';
import { HISTORY_LIMIT } from './domain/property-history';
import { startTestCrmServer, type TestCrmServer } from './crm-server-fixture';

const { AssociationSpecAssociationCategoryEnum: Category } = associations;
const ObjectsCategory = objects.AssociationSpecAssociationCategoryEnum;

/** The SDK's error of a refused call: its HTTP status and body. */
async function refusal(call: Promise<unknown>): Promise<{ code: number; body: { message?: string; category?: string; context?: Record<string, string[]> } }> {
  try {
    await call;
  } catch (error) {
    return error as { code: number; body: { message?: string } };
  }
  throw new Error('the call was expected to be refused, and it resolved');
}

const values = (history: objects.ValueWithTimestamp[] | undefined) => (history ?? []).map((entry) => entry.value);
const newestFirst = (history: objects.ValueWithTimestamp[]) => history.every((entry, i) => i === 0 || history[i - 1].timestamp >= entry.timestamp);

/**
 * The vendor's SDK against the built-in CRM, for what sdk-contract.int-spec.ts leaves out: property
 * history on reads, association labels (v4), and creates that name their associations. Each case
 * has a portal of its own.
 */
describe('the hosted CRM vendor SDK against the built-in CRM: history, labels and associations on create', () => {
  let crm: TestCrmServer;
  let portalId = 1900;
  let client: Client;

  beforeAll(async () => {
    crm = await startTestCrmServer('crm-sdk-more');
  });

  beforeEach(async () => {
    const token = `sdk-more-token-of-portal-${++portalId}`;
    await crm.account(portalId, token);
    client = new Client({ accessToken: token, basePath: crm.baseUrl, numberOfApiCallRetries: 0 });
  });

  afterAll(() => crm?.close());

  const createOne = async (type: string, props: Record<string, string>) => client.crm.objects.basicApi.create(type, { properties: props });
  const v4 = () => client.crm.associations.v4;
  const newLabel = (from: string, to: string, request: schema.PublicAssociationDefinitionCreateRequest) =>
    client.crm.associations.v4.schema.definitionsApi.create(from, to, request);

  describe('property history on reads', () => {
    it('when a deal is created and changed by basic and batch updates, then a read by id, by a unique property and in a page answers each value newest first', async () => {
      await client.crm.properties.groupsApi.create('deals', { name: 'ecommerce_sync', label: 'Ecommerce sync' });
      await client.crm.properties.coreApi.create('deals', {
        name: 'shop_key',
        label: 'Shop key',
        type: properties.PropertyCreateTypeEnum.String,
        fieldType: properties.PropertyCreateFieldTypeEnum.Text,
        groupName: 'ecommerce_sync',
        hasUniqueValue: true,
      });
      const deal = await createOne('deals', { dealname: 'Order 1', amount: '10', shop_key: 'order-1' });
      await client.crm.objects.basicApi.update('deals', deal.id, { properties: { amount: '12' } });
      await client.crm.objects.batchApi.update('deals', { inputs: [{ id: deal.id, properties: { amount: '15', dealname: 'Order 1' } }] });

      const read = await client.crm.objects.basicApi.getById('deals', deal.id, ['amount'], ['amount', 'dealname', 'closedate']);
      expect(read).toBeInstanceOf(objects.SimplePublicObjectWithAssociations);
      const amount = read.propertiesWithHistory!.amount;
      expect(amount[0]).toBeInstanceOf(objects.ValueWithTimestamp);
      expect(values(amount)).toEqual(['15', '12', '10']);
      expect(amount[0].timestamp).toBeInstanceOf(Date);
      expect(newestFirst(amount)).toBe(true);
      expect(amount.every((entry) => entry.sourceType === 'API')).toBe(true);
      // An unchanged value written again by a batch update is no change.
      expect(values(read.propertiesWithHistory!.dealname)).toEqual(['Order 1']);
      expect(read.propertiesWithHistory!.closedate).toEqual([]);
      expect(read.properties).toEqual({ amount: '15' });

      const byKey = await client.crm.objects.basicApi.getById('deals', 'order-1', ['amount'], ['amount'], undefined, false, 'shop_key');
      expect(values(byKey.propertiesWithHistory!.amount)).toEqual(['15', '12', '10']);

      const page = await client.crm.objects.basicApi.getPage('deals', 10, undefined, ['dealname'], ['amount']);
      expect(page).toBeInstanceOf(objects.CollectionResponseSimplePublicObjectWithAssociationsForwardPaging);
      expect(values(page.results[0].propertiesWithHistory!.amount)).toEqual(['15', '12', '10']);

      const plain = await client.crm.objects.basicApi.getById('deals', deal.id, ['amount']);
      expect(plain.propertiesWithHistory).toBeUndefined();
    });

    it('when contacts are upserted and read in a batch by id and by e-mail with propertiesWithHistory, then each result carries its values', async () => {
      const first = await client.crm.objects.batchApi.upsert('contacts', {
        inputs: [{ id: 'ada@example.com', idProperty: 'email', properties: { firstname: 'Ada' } }],
      });
      await client.crm.objects.batchApi.upsert('contacts', { inputs: [{ id: 'ada@example.com', idProperty: 'email', properties: { firstname: 'Augusta' } }] });
      const id = first.results[0].id;

      const byId = await client.crm.objects.batchApi.read('contacts', { inputs: [{ id }], properties: ['firstname'], propertiesWithHistory: ['firstname'] });
      expect(byId).toBeInstanceOf(objects.BatchResponseSimplePublicObject);
      expect(byId.results[0]).toBeInstanceOf(objects.SimplePublicObject);
      expect(byId.results[0].propertiesWithHistory!.firstname[0]).toBeInstanceOf(objects.ValueWithTimestamp);
      expect(values(byId.results[0].propertiesWithHistory!.firstname)).toEqual(['Augusta', 'Ada']);

      const byEmail = await client.crm.objects.batchApi.read('contacts', {
        idProperty: 'email',
        inputs: [{ id: 'ADA@example.com' }],
        properties: [],
        propertiesWithHistory: ['firstname', 'email'],
      });
      expect(values(byEmail.results[0].propertiesWithHistory!.firstname)).toEqual(['Augusta', 'Ada']);
      expect(values(byEmail.results[0].propertiesWithHistory!.email)[0]).toBe('ada@example.com');

      const without = await client.crm.objects.batchApi.read('contacts', { inputs: [{ id }], properties: ['firstname'], propertiesWithHistory: [] });
      expect(without.results[0].propertiesWithHistory).toBeUndefined();
    });

    it('when a property changes more often than the CRM keeps, then the newest values are kept, newest first', async () => {
      const product = await createOne('products', { name: 'Mug', price: '0' });
      for (let price = 1; price <= HISTORY_LIMIT + 5; price++)
        await client.crm.objects.batchApi.update('products', { inputs: [{ id: product.id, properties: { price: String(price) } }] });

      const read = await client.crm.objects.basicApi.getById('products', product.id, ['price'], ['price', 'name']);
      const expected = Array.from({ length: HISTORY_LIMIT }, (_, i) => String(HISTORY_LIMIT + 5 - i));
      expect(values(read.propertiesWithHistory!.price)).toEqual(expected);
      expect(values(read.propertiesWithHistory!.name)).toEqual(['Mug']);
    });

    it('when values are written as the empty string and as null, then the empty string clears and null leaves the value, as the hosted CRM does', async () => {
      const product = await createOne('products', { name: 'Mug', price: '5', description: 'Blue' });
      // The SDK types values as strings; a null reaches the CRM all the same (its serializer passes it on).
      const kept = { description: null } as unknown as Record<string, string>;
      await client.crm.objects.batchApi.update('products', { inputs: [{ id: product.id, properties: { price: '' } }] });
      await client.crm.objects.basicApi.update('products', product.id, { properties: kept });
      const created = await client.crm.objects.batchApi.create('products', { inputs: [{ properties: { name: 'Cup', ...kept }, associations: [] }] });

      const read = await client.crm.objects.basicApi.getById('products', product.id, ['price', 'description'], ['price']);
      expect(read.properties).toMatchObject({ price: '', description: 'Blue' });
      expect(values(read.propertiesWithHistory!.price)).toEqual(['', '5']);
      const search = await client.crm.objects.searchApi.doSearch('products', {
        filterGroups: [{ filters: [{ propertyName: 'price', operator: objects.FilterOperatorEnum.HasProperty }] }],
        properties: ['price'],
        limit: 10,
        after: '0',
        sorts: [],
      });
      expect(search.total).toBe(0);
      const cup = await client.crm.objects.basicApi.getById('products', created.results[0].id, ['description']);
      expect(cup.properties.description ?? null).toBeNull();
    });
  });

  describe('association labels (v4)', () => {
    it('when labels are defined between deals and contacts, then each direction lists the default type and its labels; a name taken twice is refused', async () => {
      const buyer = await newLabel('deals', 'contacts', { name: 'buyer', label: 'Buyer' });
      expect(buyer).toBeInstanceOf(schema.CollectionResponseAssociationSpecWithLabelNoPaging);
      expect(buyer.results[0]).toBeInstanceOf(schema.AssociationSpecWithLabel);
      const [buyerType, buyerBack] = buyer.results;
      expect(buyerType).toMatchObject({ category: 'USER_DEFINED', label: 'Buyer' });
      const manager = await newLabel('contacts', 'deals', { name: 'manager', label: 'Manager', inverseLabel: 'Managed deal' });
      const [managerType, managedBack] = manager.results;

      const dealToContact = await v4().schema.definitionsApi.getAll('deals', 'contacts');
      expect(dealToContact).toBeInstanceOf(schema.CollectionResponseAssociationSpecWithLabelNoPaging);
      expect(dealToContact.results.map((type) => [type.category, type.typeId, type.label ?? null])).toEqual([
        ['HUBSPOT_DEFINED', 3, null],
        ['USER_DEFINED', buyerType.typeId, 'Buyer'],
        ['USER_DEFINED', managedBack.typeId, 'Managed deal'],
      ]);
      const contactToDeal = await v4().schema.definitionsApi.getAll('contacts', 'deals');
      expect(contactToDeal.results.map((type) => [type.typeId, type.label ?? null])).toEqual([
        [4, null],
        [buyerBack.typeId, 'Buyer'],
        [managerType.typeId, 'Manager'],
      ]);

      const again = await refusal(newLabel('contacts', 'deals', { name: 'buyer', label: 'Buyer again' }));
      expect(again.code).toBe(409);
    });

    it('when a deal and a contact are associated with a label one at a time and in a batch, then reads both ways answer the default type and the label', async () => {
      const [buyerType, buyerBack] = (await newLabel('deals', 'contacts', { name: 'buyer', label: 'Buyer' })).results;
      const contact = await createOne('contacts', { email: 'buyer@example.com' });
      const other = await createOne('contacts', { email: 'other@example.com' });
      const deal = await createOne('deals', { dealname: 'Order' });

      const one = await v4().basicApi.create('deals', deal.id, 'contacts', contact.id, [
        { associationCategory: Category.HubspotDefined, associationTypeId: 3 },
        { associationCategory: Category.UserDefined, associationTypeId: buyerType.typeId },
      ]);
      expect(one).toBeInstanceOf(associations.LabelsBetweenObjectPair);
      expect(one).toMatchObject({ fromObjectId: Number(deal.id), toObjectId: Number(contact.id), labels: ['Buyer'] });

      const batch = await v4().batchApi.create('deals', 'contacts', {
        inputs: [{ _from: { id: deal.id }, to: { id: other.id }, types: [{ associationCategory: Category.UserDefined, associationTypeId: buyerType.typeId }] }],
      });
      expect(batch).toBeInstanceOf(associations.BatchResponseLabelsBetweenObjectPair);
      expect(batch.results[0]).toBeInstanceOf(associations.LabelsBetweenObjectPair);
      expect(batch.results[0]).toMatchObject({ toObjectId: Number(other.id), labels: ['Buyer'] });

      const page = await v4().basicApi.getPage('deals', deal.id, 'contacts');
      expect(page).toBeInstanceOf(associations.CollectionResponseMultiAssociatedObjectWithLabelForwardPaging);
      expect(page.results[0].associationTypes[1]).toBeInstanceOf(associations.AssociationSpecWithLabel);
      expect(page.results.map((one) => [one.toObjectId, one.associationTypes.map((type) => [type.typeId, type.label ?? null])])).toEqual([
        [
          Number(contact.id),
          [
            [3, null],
            [buyerType.typeId, 'Buyer'],
          ],
        ],
        [
          Number(other.id),
          [
            [3, null],
            [buyerType.typeId, 'Buyer'],
          ],
        ],
      ]);
      const back = await v4().batchApi.getPage('contacts', 'deals', { inputs: [{ id: contact.id }] });
      expect(back).toBeInstanceOf(associations.BatchResponsePublicAssociationMultiWithLabel);
      expect(back.results[0].to[0].associationTypes.map((type) => [type.category, type.typeId, type.label ?? null])).toEqual([
        ['HUBSPOT_DEFINED', 4, null],
        ['USER_DEFINED', buyerBack.typeId, 'Buyer'],
      ]);
      // The v3 read and the default association of the service are as they were.
      const viaV3 = await client.crm.objects.basicApi.getById('deals', deal.id, undefined, undefined, ['contacts']);
      expect(viaV3.associations?.contacts.results.map((one) => one.id)).toEqual([contact.id, other.id]);
    });

    it('when labels are archived off a pair, then the association stays with its default type; archived, it is gone with its labels', async () => {
      const [buyerType] = (await newLabel('deals', 'contacts', { name: 'buyer', label: 'Buyer' })).results;
      const contact = await createOne('contacts', { email: 'c@example.com' });
      const deal = await createOne('deals', { dealname: 'Order' });
      const labelled = [{ associationCategory: Category.UserDefined, associationTypeId: buyerType.typeId }];
      await v4().basicApi.create('deals', deal.id, 'contacts', contact.id, labelled);

      await v4().batchApi.archiveLabels('deals', 'contacts', { inputs: [{ _from: { id: deal.id }, to: { id: contact.id }, types: labelled }] });
      const unlabelled = await v4().basicApi.getPage('deals', deal.id, 'contacts');
      expect(unlabelled.results.map((one) => one.associationTypes.map((type) => type.typeId))).toEqual([[3]]);
      expect((await v4().basicApi.getPage('contacts', contact.id, 'deals')).results.map((one) => one.associationTypes.map((type) => type.typeId))).toEqual([
        [4],
      ]);

      await v4().basicApi.create('deals', deal.id, 'contacts', contact.id, labelled);
      await v4().basicApi.archive('deals', deal.id, 'contacts', contact.id);
      await v4().batchApi.createDefault('deals', 'contacts', { inputs: [{ _from: { id: deal.id }, to: { id: contact.id } }] });
      expect((await v4().basicApi.getPage('deals', deal.id, 'contacts')).results.map((one) => one.associationTypes.map((type) => type.typeId))).toEqual([[3]]);
    });

    it('when an association names a label the portal does not have, or one of the other direction, then the SDK throws the 400 naming it and nothing is associated', async () => {
      const [, buyerBack] = (await newLabel('deals', 'contacts', { name: 'buyer', label: 'Buyer' })).results;
      const contact = await createOne('contacts', { email: 'd@example.com' });
      const deal = await createOne('deals', { dealname: 'Order' });

      const unknown = await refusal(
        v4().basicApi.create('deals', deal.id, 'contacts', contact.id, [{ associationCategory: Category.UserDefined, associationTypeId: 4242 }]),
      );
      expect(unknown).toMatchObject({
        code: 400,
        body: expect.objectContaining({ category: 'VALIDATION_ERROR', message: expect.stringContaining('USER_DEFINED 4242') }),
      });
      const wrongWay = await refusal(
        v4().batchApi.create('deals', 'contacts', {
          inputs: [
            { _from: { id: deal.id }, to: { id: contact.id }, types: [{ associationCategory: Category.UserDefined, associationTypeId: buyerBack.typeId }] },
          ],
        }),
      );
      expect(wrongWay).toMatchObject({ code: 400, body: expect.objectContaining({ message: expect.stringContaining(`USER_DEFINED ${buyerBack.typeId}`) }) });
      expect((await v4().basicApi.getPage('deals', deal.id, 'contacts')).results).toEqual([]);
    });

    it('when one batch associates contacts with contacts, each both ways, then every contact lists all of its associated contacts', async () => {
      const [a, b, c] = await Promise.all(['a', 'b', 'c'].map((name) => createOne('contacts', { email: `${name}-same-type@example.com` })));

      // a is the start of one pair and the end of the other: both sides of a same-type pair are the same documents.
      await v4().batchApi.createDefault('contacts', 'contacts', {
        inputs: [
          { _from: { id: a.id }, to: { id: b.id } },
          { _from: { id: c.id }, to: { id: a.id } },
        ],
      });

      const associated = async (contact: { id: string }) =>
        (await v4().basicApi.getPage('contacts', contact.id, 'contacts')).results.map((one) => String(one.toObjectId)).sort();
      expect(await associated(a)).toEqual([b.id, c.id].sort());
      expect(await associated(b)).toEqual([a.id]);
      expect(await associated(c)).toEqual([a.id]);
    });

    it('when a labelled line item moves to another deal, then it has that one deal only, without the old label', async () => {
      const [sourceType] = (await newLabel('line_items', 'deals', { name: 'source', label: 'Source order' })).results;
      const [first, second] = [await createOne('deals', { dealname: 'One' }), await createOne('deals', { dealname: 'Two' })];
      const item = await createOne('line_items', { quantity: '1' });

      await v4().basicApi.create('line_items', item.id, 'deals', first.id, [
        { associationCategory: Category.UserDefined, associationTypeId: sourceType.typeId },
      ]);
      await v4().basicApi.createDefault('line_items', item.id, 'deals', second.id);

      const deals = await v4().basicApi.getPage('line_items', item.id, 'deals');
      expect(deals.results.map((one) => [one.toObjectId, one.associationTypes.map((type) => type.typeId)])).toEqual([[Number(second.id), [20]]]);
    });
  });

  describe('creates with associations', () => {
    it('when a deal is created with its contact by the default type and a label, then both directions read back with their types', async () => {
      const [buyerType] = (await newLabel('deals', 'contacts', { name: 'buyer', label: 'Buyer' })).results;
      const contact = await createOne('contacts', { email: 'e@example.com' });

      const deal = await client.crm.objects.basicApi.create('deals', {
        properties: { dealname: 'Order' },
        associations: [
          {
            to: { id: contact.id },
            types: [
              { associationCategory: ObjectsCategory.HubspotDefined, associationTypeId: 3 },
              { associationCategory: ObjectsCategory.UserDefined, associationTypeId: buyerType.typeId },
            ],
          },
        ],
      });
      expect(deal).toBeInstanceOf(objects.SimplePublicObject);
      const page = await v4().basicApi.getPage('deals', deal.id, 'contacts');
      expect(page.results.map((one) => [one.toObjectId, one.associationTypes.map((type) => type.label ?? null)])).toEqual([
        [Number(contact.id), [null, 'Buyer']],
      ]);
      const back = await client.crm.objects.basicApi.getById('contacts', contact.id, undefined, undefined, ['deals']);
      expect(back.associations?.deals.results.map((one) => one.id)).toEqual([deal.id]);
    });

    it('when line items are created in a batch with their deal, then each is associated with it', async () => {
      const deal = await createOne('deals', { dealname: 'Order' });
      const toDeal = [{ to: { id: deal.id }, types: [{ associationCategory: ObjectsCategory.HubspotDefined, associationTypeId: 20 }] }];
      const created = await client.crm.objects.batchApi.create('line_items', {
        inputs: [
          { properties: { quantity: '1' }, associations: toDeal },
          { properties: { quantity: '2' }, associations: toDeal },
          { properties: { quantity: '3' }, associations: [] },
        ],
      });
      expect(created).toBeInstanceOf(objects.BatchResponseSimplePublicObject);
      const items = await v4().basicApi.getPage('deals', deal.id, 'line_items');
      expect(items.results.map((one) => String(one.toObjectId)).sort()).toEqual([created.results[0].id, created.results[1].id].sort());
    });

    it('when a create names a target that does not exist, then the SDK throws the 400 naming it and nothing is created', async () => {
      const contact = await createOne('contacts', { email: 'f@example.com' });
      const types = [{ associationCategory: ObjectsCategory.HubspotDefined, associationTypeId: 3 }];
      const refused = await refusal(
        client.crm.objects.batchApi.create('deals', {
          inputs: [
            { properties: { dealname: 'Kept out' }, associations: [{ to: { id: contact.id }, types }] },
            { properties: { dealname: 'Kept out too' }, associations: [{ to: { id: '999999999' }, types }] },
          ],
        }),
      );
      expect(refused).toMatchObject({
        code: 400,
        body: expect.objectContaining({
          category: 'VALIDATION_ERROR',
          message: 'One or more associations are invalid',
          context: { INVALID_OBJECT_IDS: ['CONTACT=999999999 is not valid'] },
        }),
      });
      expect((await client.crm.objects.basicApi.getPage('deals', 10)).results).toEqual([]);
    });

    it('when a create names a type that does not start at its object type, then the SDK throws the 400 naming it and nothing is created', async () => {
      const deal = await createOne('deals', { dealname: 'Order' });
      const refused = await refusal(
        client.crm.objects.basicApi.create('line_items', {
          properties: { quantity: '1' },
          associations: [{ to: { id: deal.id }, types: [{ associationCategory: ObjectsCategory.HubspotDefined, associationTypeId: 19 }] }],
        }),
      );
      expect(refused).toMatchObject({ code: 400, body: expect.objectContaining({ message: expect.stringContaining('HUBSPOT_DEFINED 19') }) });
      expect((await client.crm.objects.basicApi.getPage('line_items', 10)).results).toEqual([]);
    });
  });
});
