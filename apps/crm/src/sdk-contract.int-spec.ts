import { Client } from '@hubspot/api-client';
import * as associations from '@hubspot/api-client/lib/codegen/crm/associations/v4';
import * as objects from '@hubspot/api-client/lib/codegen/crm/objects';
import * as pipelines from '@hubspot/api-client/lib/codegen/crm/pipelines';
import * as properties from '@hubspot/api-client/lib/codegen/crm/properties';
import { startTestCrmServer, type TestCrmServer } from './crm-server-fixture';

const { FilterOperatorEnum } = objects;

/** The SDK's error of a refused call: its HTTP status. */
async function statusOf(call: Promise<unknown>): Promise<number | 'resolved'> {
  try {
    await call;
    return 'resolved';
  } catch (error) {
    return (error as { code?: number }).code ?? -1;
  }
}

const isDate = (value: unknown) => value instanceof Date && !Number.isNaN(value.getTime());

/**
 * The vendor's official SDK (`@hubspot/api-client`), unmodified, against the built-in CRM: each
 * operation the service uses, and the basic, search and association calls a client of the hosted
 * CRM makes, answered in the SDK's typed models (issue 25, item 4). Each case has a portal of its own.
 */
describe('the hosted CRM vendor SDK against the built-in CRM', () => {
  let crm: TestCrmServer;
  let portalId = 900;
  let client: Client;

  beforeAll(async () => {
    crm = await startTestCrmServer('crm-sdk');
  });

  beforeEach(async () => {
    const token = `sdk-token-of-portal-${++portalId}`;
    await crm.account(portalId, token);
    client = new Client({ accessToken: token, basePath: crm.baseUrl, numberOfApiCallRetries: 0 });
  });

  afterAll(() => crm?.close());

  /** A property group and a unique key property on a type, as the install makes them. */
  async function installKey(objectType: string, name = 'shop_key'): Promise<void> {
    await client.crm.properties.groupsApi.create(objectType, { name: 'ecommerce_sync', label: 'Ecommerce sync' });
    await client.crm.properties.coreApi.create(objectType, {
      name,
      label: 'Shop key',
      type: properties.PropertyCreateTypeEnum.String,
      fieldType: properties.PropertyCreateFieldTypeEnum.Text,
      groupName: 'ecommerce_sync',
      hasUniqueValue: true,
    });
  }

  describe('properties and property groups', () => {
    it('when a group and an enumerated property are created, then both are listed as the SDK models them; archived, the property is gone', async () => {
      const group = await client.crm.properties.groupsApi.create('deals', { name: 'ecommerce_sync', label: 'Ecommerce sync' });
      expect(group).toBeInstanceOf(properties.PropertyGroup);
      const created = await client.crm.properties.coreApi.create('deals', {
        name: 'channel',
        label: 'Channel',
        type: properties.PropertyCreateTypeEnum.Enumeration,
        fieldType: properties.PropertyCreateFieldTypeEnum.Select,
        groupName: 'ecommerce_sync',
        options: [
          { label: 'Web', value: 'web', displayOrder: 0, hidden: false },
          { label: 'Store', value: 'store', displayOrder: 1, hidden: false },
        ],
      });
      expect(created).toBeInstanceOf(properties.Property);
      expect(created).toMatchObject({ name: 'channel', type: 'enumeration', fieldType: 'select', groupName: 'ecommerce_sync' });
      expect(created.options.map((option) => option.value)).toEqual(['web', 'store']);

      const listed = await client.crm.properties.coreApi.getAll('deals');
      expect(listed).toBeInstanceOf(properties.CollectionResponsePropertyNoPaging);
      expect(listed.results.find((property) => property.name === 'channel')).toBeInstanceOf(properties.Property);
      expect((await client.crm.properties.groupsApi.getAll('deals')).results.map((one) => one.name)).toContain('ecommerce_sync');

      await client.crm.properties.coreApi.archive('deals', 'channel');
      expect((await client.crm.properties.coreApi.getAll('deals')).results.map((property) => property.name)).not.toContain('channel');
      expect(await statusOf(client.crm.properties.coreApi.archive('deals', 'channel'))).toBe(404);
    });
  });

  describe('pipelines and stages', () => {
    it('when a pipeline is made with stages, then the CRM gives them ids; stages change through their own calls; archived, it is gone', async () => {
      const pipeline = await client.crm.pipelines.pipelinesApi.create('deals', {
        label: 'Shop',
        displayOrder: 3,
        stages: [
          { label: 'Open', displayOrder: 0, metadata: { probability: '0.2' } },
          { label: 'Won', displayOrder: 1, metadata: { probability: '1.0', isClosed: 'true' } },
        ],
      });
      expect(pipeline).toBeInstanceOf(pipelines.Pipeline);
      expect(pipeline.id).toEqual(expect.any(String));
      expect(pipeline.stages.map((stage) => stage.label)).toEqual(['Open', 'Won']);
      expect(pipeline.stages[0]).toBeInstanceOf(pipelines.PipelineStage);
      expect(pipeline.stages[1].metadata).toMatchObject({ probability: '1.0', isClosed: 'true' });

      const added = await client.crm.pipelines.pipelineStagesApi.create('deals', pipeline.id, {
        label: 'Lost',
        displayOrder: 2,
        metadata: { probability: '0.0' },
      });
      expect(added).toBeInstanceOf(pipelines.PipelineStage);
      await client.crm.pipelines.pipelineStagesApi.update('deals', pipeline.id, added.id, { label: 'Closed lost', metadata: { probability: '0.0' } });
      await client.crm.pipelines.pipelineStagesApi.archive('deals', pipeline.id, pipeline.stages[0].id);
      await client.crm.pipelines.pipelinesApi.update('deals', pipeline.id, { label: 'Web shop' });

      const listed = await client.crm.pipelines.pipelinesApi.getAll('deals');
      expect(listed).toBeInstanceOf(pipelines.CollectionResponsePipelineNoPaging);
      const read = listed.results.find((one) => one.id === pipeline.id)!;
      expect(read.label).toBe('Web shop');
      expect(read.stages.map((stage) => stage.label)).toEqual(['Won', 'Closed lost']);

      await client.crm.pipelines.pipelinesApi.archive('deals', pipeline.id);
      expect((await client.crm.pipelines.pipelinesApi.getAll('deals')).results.map((one) => one.id)).not.toContain(pipeline.id);
    });
  });

  describe('objects in batches', () => {
    it('when objects are upserted by a unique property twice, then the answer says which it made (`new`), with its times, and the second finds the first', async () => {
      await installKey('products');
      const first = await client.crm.objects.batchApi.upsert('products', { inputs: [{ id: 'sku-1', idProperty: 'shop_key', properties: { name: 'Mug' } }] });
      expect(first).toBeInstanceOf(objects.BatchResponseSimplePublicUpsertObject);
      expect(first.status).toBe('COMPLETE');
      expect(isDate(first.startedAt) && isDate(first.completedAt)).toBe(true);
      const [made] = first.results;
      expect(made).toBeInstanceOf(objects.SimplePublicUpsertObject);
      expect(made).toMatchObject({ _new: true, properties: expect.objectContaining({ name: 'Mug', shop_key: 'sku-1' }) });
      expect(isDate(made.createdAt)).toBe(true);

      const again = await client.crm.objects.batchApi.upsert('products', { inputs: [{ id: 'sku-1', idProperty: 'shop_key', properties: { name: 'Cup' } }] });
      expect(again.results[0]).toMatchObject({ id: made.id, _new: false, properties: expect.objectContaining({ name: 'Cup' }) });
    });

    it('when contacts are upserted by e-mail in another case, then they are one contact', async () => {
      const first = await client.crm.objects.batchApi.upsert('contacts', {
        inputs: [{ id: 'ada@example.com', idProperty: 'email', properties: { firstname: 'Ada' } }],
      });
      const second = await client.crm.objects.batchApi.upsert('contacts', {
        inputs: [{ id: 'ADA@example.com', idProperty: 'email', properties: { lastname: 'Lovelace' } }],
      });
      expect(second.results[0]).toMatchObject({ id: first.results[0].id, _new: false });
    });

    it('when objects are created, updated, read by id and by e-mail, and archived in batches, then each answer is the SDK model of it', async () => {
      const created = await client.crm.objects.batchApi.create('contacts', {
        inputs: [
          { properties: { email: 'grace@example.com', firstname: 'Grace' }, associations: [] },
          { properties: { email: 'alan@example.com', firstname: 'Alan' }, associations: [] },
        ],
      });
      expect(created).toBeInstanceOf(objects.BatchResponseSimplePublicObject);
      const [grace, alan] = created.results;
      expect(grace).toBeInstanceOf(objects.SimplePublicObject);

      const updated = await client.crm.objects.batchApi.update('contacts', { inputs: [{ id: grace.id, properties: { lastname: 'Hopper' } }] });
      expect(updated.results[0].properties).toMatchObject({ firstname: 'Grace', lastname: 'Hopper' });

      const byId = await client.crm.objects.batchApi.read('contacts', { inputs: [{ id: grace.id }], properties: ['lastname'], propertiesWithHistory: [] });
      expect(byId.results.map((one) => one.properties.lastname)).toEqual(['Hopper']);
      const byEmail = await client.crm.objects.batchApi.read('contacts', {
        idProperty: 'email',
        inputs: [{ id: 'ALAN@example.com' }, { id: 'nobody@example.com' }],
        properties: ['email'],
        propertiesWithHistory: [],
      });
      expect(byEmail).toBeInstanceOf(objects.BatchResponseSimplePublicObjectWithErrors);
      expect(byEmail.results.map((one) => one.id)).toEqual([alan.id]);
      expect((byEmail as objects.BatchResponseSimplePublicObjectWithErrors).errors?.[0]).toMatchObject({ category: 'OBJECT_NOT_FOUND' });

      await client.crm.objects.batchApi.archive('contacts', { inputs: [{ id: alan.id }] });
      const after = await client.crm.objects.batchApi.read('contacts', {
        inputs: [{ id: alan.id }, { id: grace.id }],
        properties: [],
        propertiesWithHistory: [],
      });
      expect(after.results.map((one) => one.id)).toEqual([grace.id]);
    });

    it('when a contact takes an e-mail another contact holds, then the SDK throws the 409 with the CRM category', async () => {
      await client.crm.objects.batchApi.create('contacts', { inputs: [{ properties: { email: 'taken@example.com' }, associations: [] }] });
      const refused = await client.crm.objects.batchApi
        .create('contacts', { inputs: [{ properties: { email: 'Taken@example.com' }, associations: [] }] })
        .catch((error: unknown) => error);
      expect(refused).toMatchObject({ code: 409, body: expect.objectContaining({ category: 'CONFLICT', message: expect.stringContaining('Existing ID') }) });
    });

    it('when a write names a property the portal lacks, then the SDK throws the 400 with the error model: category, correlation id, errors[] and context', async () => {
      const refused = (await client.crm.objects.batchApi
        .create('contacts', { inputs: [{ properties: { shoe_size: '38' }, associations: [] }] })
        .catch((error: unknown) => error)) as { code: number; body: objects.ModelError };
      expect(refused.code).toBe(400);
      expect(refused.body).toMatchObject({
        category: 'VALIDATION_ERROR',
        correlationId: expect.any(String),
        errors: [{ code: 'PROPERTY_DOESNT_EXIST', message: expect.stringContaining('shoe_size'), context: { propertyName: ['shoe_size'] } }],
        context: { propertyName: ['shoe_size'] },
      });
    });
  });

  describe('objects one by one', () => {
    it('when an object is created, read by id and by a unique property, updated, listed and archived, then each answer is the SDK model of it', async () => {
      await installKey('deals');
      const made = await client.crm.objects.basicApi.create('deals', { properties: { dealname: 'Order 1', amount: '12', shop_key: 'order-1' } });
      expect(made).toBeInstanceOf(objects.SimplePublicObject);
      expect(isDate(made.createdAt)).toBe(true);

      const read = await client.crm.objects.basicApi.getById('deals', made.id, ['dealname', 'amount']);
      expect(read).toBeInstanceOf(objects.SimplePublicObjectWithAssociations);
      expect(read.properties).toEqual({ dealname: 'Order 1', amount: '12' });
      const byKey = await client.crm.objects.basicApi.getById('deals', 'order-1', ['dealname'], undefined, undefined, false, 'shop_key');
      expect(byKey.id).toBe(made.id);

      const updated = await client.crm.objects.basicApi.update('deals', made.id, { properties: { amount: '15' } });
      expect(updated.properties.amount).toBe('15');

      await client.crm.objects.basicApi.create('deals', { properties: { dealname: 'Order 2' } });
      await client.crm.objects.basicApi.create('deals', { properties: { dealname: 'Order 3' } });
      const page = await client.crm.objects.basicApi.getPage('deals', 2, undefined, ['dealname']);
      expect(page).toBeInstanceOf(objects.CollectionResponseSimplePublicObjectWithAssociationsForwardPaging);
      expect(page.results.map((one) => one.properties.dealname)).toEqual(['Order 1', 'Order 2']);
      const next = await client.crm.objects.basicApi.getPage('deals', 2, page.paging!.next!.after, ['dealname']);
      expect(next.results.map((one) => one.properties.dealname)).toEqual(['Order 3']);
      expect(next.paging).toBeUndefined();

      await client.crm.objects.basicApi.archive('deals', made.id);
      expect(await statusOf(client.crm.objects.basicApi.getById('deals', made.id))).toBe(404);
    });
  });

  describe('search', () => {
    it('when contacts are searched with filter groups, operators and a sort, then the answer has the total and the page in order', async () => {
      await client.crm.objects.batchApi.create('contacts', {
        inputs: [
          { properties: { email: 'a@example.com', firstname: 'Ann', company: 'Blue Mugs' }, associations: [] },
          { properties: { email: 'b@example.com', firstname: 'Ben', company: 'Red Pots' }, associations: [] },
          { properties: { email: 'c@example.com', firstname: 'Cid' }, associations: [] },
        ],
      });
      const search = (request: objects.PublicObjectSearchRequest) => client.crm.objects.searchApi.doSearch('contacts', request);

      const bySort = await search({
        filterGroups: [{ filters: [{ propertyName: 'company', operator: FilterOperatorEnum.HasProperty }] }],
        sorts: ['-firstname'],
        properties: ['firstname'],
      });
      expect(bySort).toBeInstanceOf(objects.CollectionResponseWithTotalSimplePublicObjectForwardPaging);
      expect(bySort.total).toBe(2);
      expect(bySort.results.map((one) => one.properties.firstname)).toEqual(['Ben', 'Ann']);

      const either = await search({
        filterGroups: [
          { filters: [{ propertyName: 'company', operator: FilterOperatorEnum.ContainsToken, value: 'mug*' }] },
          { filters: [{ propertyName: 'company', operator: FilterOperatorEnum.NotHasProperty }] },
        ],
        properties: ['firstname'],
        sorts: ['firstname'],
      });
      expect(either.results.map((one) => one.properties.firstname)).toEqual(['Ann', 'Cid']);

      const byEmail = await search({
        filterGroups: [
          {
            filters: [
              { propertyName: 'email', operator: FilterOperatorEnum.In, values: ['b@example.com', 'c@example.com'] },
              { propertyName: 'firstname', operator: FilterOperatorEnum.Neq, value: 'Cid' },
            ],
          },
        ],
        properties: ['firstname'],
      });
      expect(byEmail.results.map((one) => one.properties.firstname)).toEqual(['Ben']);

      const paged = await search({ limit: 1, after: '1', sorts: ['firstname'], properties: ['firstname'] });
      expect(paged.results.map((one) => one.properties.firstname)).toEqual(['Ben']);
      expect(paged.paging?.next?.after).toBe('2');
      expect(await statusOf(search({ limit: 201 }))).toBe(400);
    });
  });

  describe('associations (v4)', () => {
    it('when a deal and a contact are associated by default, then the answer names both directions with their association types', async () => {
      const [contact] = (await client.crm.objects.batchApi.create('contacts', { inputs: [{ properties: { email: 'd@example.com' }, associations: [] }] }))
        .results;
      const [deal] = (await client.crm.objects.batchApi.create('deals', { inputs: [{ properties: { dealname: 'Order' }, associations: [] }] })).results;

      const answer = await client.crm.associations.v4.batchApi.createDefault('deals', 'contacts', {
        inputs: [{ _from: { id: deal.id }, to: { id: contact.id } }],
      });
      expect(answer).toBeInstanceOf(associations.BatchResponsePublicDefaultAssociation);
      expect(answer.results).toEqual(
        expect.arrayContaining([
          expect.objectContaining({
            _from: expect.objectContaining({ id: deal.id }),
            to: expect.objectContaining({ id: contact.id }),
            associationSpec: expect.objectContaining({ associationTypeId: 3 }),
          }),
          expect.objectContaining({
            _from: expect.objectContaining({ id: contact.id }),
            to: expect.objectContaining({ id: deal.id }),
            associationSpec: expect.objectContaining({ associationTypeId: 4 }),
          }),
        ]),
      );
      const read = await client.crm.objects.basicApi.getById('deals', deal.id, undefined, undefined, ['contacts']);
      expect(read.associations?.contacts.results.map((one) => one.id)).toEqual([contact.id]);
    });

    it('when associations are made one at a time (default or naming the default type), read one by one and in a batch, and archived, then each answer is the SDK model of it', async () => {
      const { results: deals } = await client.crm.objects.batchApi.create('deals', {
        inputs: [
          { properties: { dealname: 'One' }, associations: [] },
          { properties: { dealname: 'Two' }, associations: [] },
        ],
      });
      const { results: items } = await client.crm.objects.batchApi.create('line_items', {
        inputs: [
          { properties: { quantity: '1' }, associations: [] },
          { properties: { quantity: '2' }, associations: [] },
        ],
      });
      const v4 = client.crm.associations.v4;

      const byDefault = await v4.basicApi.createDefault('line_items', items[0].id, 'deals', deals[0].id);
      expect(byDefault).toBeInstanceOf(associations.BatchResponsePublicDefaultAssociation);
      const named = await v4.basicApi.create('line_items', items[1].id, 'deals', deals[1].id, [
        { associationCategory: associations.AssociationSpecAssociationCategoryEnum.HubspotDefined, associationTypeId: 20 },
      ]);
      expect(named).toBeInstanceOf(associations.LabelsBetweenObjectPair);
      expect(named).toMatchObject({ fromObjectId: Number(items[1].id), toObjectId: Number(deals[1].id) });
      expect(
        await statusOf(
          v4.basicApi.create('line_items', items[1].id, 'deals', deals[0].id, [
            { associationCategory: associations.AssociationSpecAssociationCategoryEnum.UserDefined, associationTypeId: 999 },
          ]),
        ),
      ).toBe(400);

      const page = await v4.basicApi.getPage('deals', deals[0].id, 'line_items');
      expect(page).toBeInstanceOf(associations.CollectionResponseMultiAssociatedObjectWithLabelForwardPaging);
      expect(page.results).toEqual([expect.objectContaining({ toObjectId: Number(items[0].id), associationTypes: [expect.objectContaining({ typeId: 19 })] })]);

      const batch = await v4.batchApi.getPage('line_items', 'deals', { inputs: [{ id: items[0].id }, { id: items[1].id }] });
      expect(batch).toBeInstanceOf(associations.BatchResponsePublicAssociationMultiWithLabel);
      expect(batch.results.map((one) => [one._from.id, one.to.map((to) => to.toObjectId)])).toEqual([
        [items[0].id, [Number(deals[0].id)]],
        [items[1].id, [Number(deals[1].id)]],
      ]);

      await v4.basicApi.archive('line_items', items[0].id, 'deals', deals[0].id);
      await v4.batchApi.archive('line_items', 'deals', { inputs: [{ _from: { id: items[1].id }, to: [{ id: deals[1].id }] }] });
      expect((await v4.basicApi.getPage('deals', deals[0].id, 'line_items')).results).toEqual([]);
      expect((await v4.basicApi.getPage('line_items', items[1].id, 'deals')).results).toEqual([]);
    });
  });
});
