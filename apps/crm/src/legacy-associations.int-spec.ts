import { Client } from '@hubspot/api-client';
import * as associations from '@hubspot/api-client/lib/codegen/crm/associations/v4';
import { startTestCrmServer, type TestCrmServer } from './crm-server-fixture';
import { CrmStore } from './data-access/crm-store';

const { AssociationSpecAssociationCategoryEnum: Category } = associations;

/**
 * Objects stored before decision 56 held their associations on their own documents: the CRM's
 * start moves them to crm_object_associations, and the API answers as before.
 */
describe('the built-in CRM with objects stored before decision 56', () => {
  let crm: TestCrmServer;
  const portalId = 5600;

  beforeAll(async () => {
    crm = await startTestCrmServer('crm-legacy-associations');
  });

  afterAll(() => crm?.close());

  it('when objects hold their associations themselves, then the start moves them and every read answers as before', async () => {
    const token = 'legacy-associations-token';
    await crm.account(portalId, token);
    const client = new Client({ accessToken: token, basePath: crm.baseUrl, numberOfApiCallRetries: 0 });
    const [buyer] = (await client.crm.associations.v4.schema.definitionsApi.create('deals', 'contacts', { name: 'buyer', label: 'Buyer' })).results;
    const deal = await client.crm.objects.basicApi.create('deals', { properties: { dealname: 'Order' } });
    const contacts = await Promise.all(
      ['a', 'b'].map((name) => client.crm.objects.basicApi.create('contacts', { properties: { email: `${name}-legacy@example.com` } })),
    );
    const lineItem = await client.crm.objects.basicApi.create('line_items', { properties: { name: 'Widget', quantity: '1', price: '2' } });
    await client.crm.associations.v4.basicApi.create('deals', deal.id, 'contacts', contacts[0].id, [
      { associationCategory: Category.UserDefined, associationTypeId: buyer.typeId },
    ]);
    await client.crm.associations.v4.basicApi.createDefault('deals', deal.id, 'contacts', contacts[1].id);
    await client.crm.associations.v4.basicApi.createDefault('line_items', lineItem.id, 'deals', deal.id);
    const answers = async () => ({
      deal: (await client.crm.objects.basicApi.getById('deals', deal.id, undefined, undefined, ['contacts', 'line_items'])).associations,
      contacts: (await client.crm.associations.v4.basicApi.getPage('deals', deal.id, 'contacts')).results,
      backs: await Promise.all(contacts.map(async (contact) => (await client.crm.associations.v4.basicApi.getPage('contacts', contact.id, 'deals')).results)),
      lineItem: (await client.crm.associations.v4.basicApi.getPage('line_items', lineItem.id, 'deals')).results,
    });
    const before = await answers();

    // The older shape: each object's associations on its own document, none beside it.
    const objects = crm.connection.collection('crm_objects');
    const links = crm.connection.collection('crm_object_associations');
    for (const doc of await links.find({ portalId }).toArray()) {
      const [objectId, type] = String(doc._id).split(':');
      await objects.updateOne({ _id: Number(objectId) } as object, {
        $set: { [`associations.${type}`]: doc.ids ?? [], ...(doc.labels ? { [`associationLabels.${type}`]: doc.labels } : {}) },
      });
    }
    await links.deleteMany({ portalId });
    expect(await objects.countDocuments({ portalId, associations: { $exists: true } })).toBe(4);

    const store = new CrmStore(crm.connection);
    expect(await store.moveLegacyAssociations()).toBe(4);
    expect(await store.moveLegacyAssociations()).toBe(0);

    expect(await objects.countDocuments({ portalId, $or: [{ associations: { $exists: true } }, { associationLabels: { $exists: true } }] })).toBe(0);
    expect(await answers()).toEqual(before);
    // A line item's deal still replaces the one it had.
    const other = await client.crm.objects.basicApi.create('deals', { properties: { dealname: 'Other order' } });
    await client.crm.associations.v4.basicApi.createDefault('line_items', lineItem.id, 'deals', other.id);
    expect((await client.crm.associations.v4.basicApi.getPage('line_items', lineItem.id, 'deals')).results.map((one) => one.toObjectId)).toEqual([
      Number(other.id),
    ]);
    expect((await client.crm.associations.v4.basicApi.getPage('deals', deal.id, 'line_items')).results).toEqual([]);
  });

  it('when many deals are associated with one new contact at once, then every association lands (racing upserts of its document)', async () => {
    const token = 'racing-associations-token';
    await crm.account(portalId + 1, token);
    const client = new Client({ accessToken: token, basePath: crm.baseUrl, numberOfApiCallRetries: 0 });
    for (let round = 0; round < 5; round++) {
      const contact = await client.crm.objects.basicApi.create('contacts', { properties: { email: `racing-${round}@example.com` } });
      const deals = await Promise.all(
        Array.from({ length: 8 }, (_, n) => client.crm.objects.basicApi.create('deals', { properties: { dealname: `Deal ${n}` } })),
      );

      await Promise.all(deals.map((deal) => client.crm.associations.v4.basicApi.createDefault('deals', deal.id, 'contacts', contact.id)));

      const back = (await client.crm.associations.v4.basicApi.getPage('contacts', contact.id, 'deals')).results.map((r) => String(r.toObjectId));
      expect(back.sort()).toEqual(deals.map((deal) => deal.id).sort());
    }
  });
});
