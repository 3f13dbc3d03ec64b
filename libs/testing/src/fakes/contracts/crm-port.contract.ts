import type { CrmPort } from '@ecomm-sync/crm-client';
import { crmProperty, ECOMM_PROPERTY_GROUP } from '@ecomm-sync/domain';
import { ensureGroup, ensureProperty, statusOf, unique } from './crm-port-contract-helpers';
import { describeCrmPipelines } from './crm-pipelines.contract';
import { describeCrmValueRules } from './crm-value-rules.contract';

/** A portal's CRM with nothing in it but what the CRM starts every portal with. */
export type MakeCrm = () => CrmPort | Promise<CrmPort>;

/**
 * What the applier and the install step rely on from a CRM (CrmPort): run against FakeCrm (its
 * spec) and against HttpCrmClient talking to the built-in CRM (apps/crm, integration tier).
 */
export function describeCrmPortContract(name: string, make: MakeCrm): void {
  describe(`CrmPort contract: ${name}`, () => {
    let crm: CrmPort;
    beforeEach(async () => {
      crm = await make();
    });

    it('when objects are created, then each has its own id and its properties, and a read gives the asked properties of live objects in the order asked', async () => {
      const note = unique('note');
      await ensureProperty(crm, 'PRODUCT', 'name');
      await ensureProperty(crm, 'PRODUCT', note);
      const [first, second] = await crm.batchCreate('PRODUCT', [{ properties: { name: 'Cup', [note]: 'a' } }, { properties: { name: 'Pot' } }]);
      expect(first.id).not.toBe(second.id);
      expect(first.properties).toMatchObject({ name: 'Cup', [note]: 'a' });
      const read = await crm.batchRead('PRODUCT', [second.id, 999_999_999, first.id], ['name', note]);
      expect(read).toEqual([
        { id: second.id, properties: { name: 'Pot', [note]: null } },
        { id: first.id, properties: { name: 'Cup', [note]: 'a' } },
      ]);
    });

    it.each([
      ['names a property the portal does not have', { unknown_property_of_the_contract: 'x' }],
      ['gives a number property a value that is not a number', { NUMBER: 'twelve' }],
    ])('when a create %s, then it is refused with 400 and nothing is written', async (_case, properties) => {
      const amount = unique('amount');
      const email = `${unique('refused')}@example.com`;
      await ensureProperty(crm, 'CONTACT', 'email');
      await ensureProperty(crm, 'CONTACT', amount, 'number');
      const input = Object.fromEntries(Object.entries(properties).map(([key, value]) => [key === 'NUMBER' ? amount : key, value]));
      expect(await statusOf(crm.batchCreate('CONTACT', [{ properties: { email } }, { properties: { email: `x${email}`, ...input } }]))).toBe(400);
      // Had the first contact been written, the upsert would find it rather than make another.
      const [made] = await crm.batchUpsert('CONTACT', 'email', [{ id: email, properties: {} }]);
      expect(await statusOf(crm.batchCreate('CONTACT', [{ properties: { email: `x${email}` } }]))).toBe('resolved');
      expect(made.properties.email).toBe(email);
    });

    describeCrmValueRules(() => crm);

    it('when an update names an archived or unknown id, then it is refused with 404 and the others are updated', async () => {
      await ensureProperty(crm, 'PRODUCT', 'name');
      const [kept, archived] = await crm.batchCreate('PRODUCT', [{ properties: { name: 'Kept' } }, { properties: { name: 'Archived' } }]);
      await crm.batchArchive('PRODUCT', [archived.id]);
      expect(
        await statusOf(
          crm.batchUpdate('PRODUCT', [
            { id: kept.id, properties: { name: 'Renamed' } },
            { id: archived.id, properties: { name: 'Back' } },
          ]),
        ),
      ).toBe(404);
      expect(await crm.batchRead('PRODUCT', [kept.id, archived.id], ['name'])).toEqual([{ id: kept.id, properties: { name: 'Renamed' } }]);
    });

    it('when an update or an upsert clears a property (null), then a read gives no value for it and the others stay', async () => {
      const key = unique('key');
      await ensureProperty(crm, 'PRODUCT', 'name');
      await ensureProperty(crm, 'PRODUCT', 'price', 'number');
      await ensureProperty(crm, 'PRODUCT', key, 'string', true);
      const [first, second] = await crm.batchCreate('PRODUCT', [
        { properties: { name: 'Cup', price: '3' } },
        { properties: { name: 'Pot', price: '4', [key]: 'pot' } },
      ]);
      await crm.batchUpdate('PRODUCT', [{ id: first.id, properties: { price: null } }]);
      await crm.batchUpsert('PRODUCT', key, [{ id: 'pot', properties: { name: null } }]);
      const read = await crm.batchRead('PRODUCT', [first.id, second.id], ['name', 'price', key]);
      // A cleared property reads as "" (as the hosted CRM answers it), one never set as null.
      expect(read.map(({ properties }) => properties)).toEqual([
        { name: 'Cup', price: '', [key]: null },
        { name: '', price: '4', [key]: 'pot' },
      ]);
    });

    it('when objects are upserted twice by a unique property, then the second finds the object the first made, and the answer carries the property', async () => {
      const key = unique('key');
      await ensureProperty(crm, 'PRODUCT', 'name');
      await ensureProperty(crm, 'PRODUCT', key, 'string', true);
      const [made] = await crm.batchUpsert('PRODUCT', key, [{ id: 'sku-1', properties: { name: 'Cup' } }]);
      expect(made.properties).toMatchObject({ name: 'Cup', [key]: 'sku-1' });
      const [again] = await crm.batchUpsert('PRODUCT', key, [{ id: 'sku-1', properties: { name: 'Mug' } }]);
      expect(again.id).toBe(made.id);
      expect(await crm.batchRead('PRODUCT', [made.id], ['name', key])).toEqual([{ id: made.id, properties: { name: 'Mug', [key]: 'sku-1' } }]);
    });

    it('when one call upserts a record twice (two of the sender’s objects share it), then both are written, in order: one object, the later values', async () => {
      const key = unique('key');
      await ensureProperty(crm, 'PRODUCT', 'name');
      await ensureProperty(crm, 'PRODUCT', key, 'string', true);
      const inputs = [
        { id: 'sku-1', properties: { name: 'Cup' } },
        { id: 'sku-2', properties: { name: 'Pot' } },
        { id: 'sku-1', properties: { name: 'Mug' } },
      ];
      const written = await crm.batchUpsert('PRODUCT', key, inputs);
      const [shared, ...others] = new Set(written.filter((object) => object.properties[key] === 'sku-1').map((object) => object.id));
      expect(others).toEqual([]);
      expect(await crm.batchRead('PRODUCT', [shared], ['name'])).toEqual([{ id: shared, properties: { name: 'Mug' } }]);
    });

    it('when an upsert goes by a property without unique values, then it is refused with 400; when a create takes a unique value another object holds, then 409', async () => {
      const key = unique('key');
      await ensureProperty(crm, 'PRODUCT', 'name');
      await ensureProperty(crm, 'PRODUCT', key, 'string', true);
      expect(await statusOf(crm.batchUpsert('PRODUCT', 'name', [{ id: 'Cup', properties: {} }]))).toBe(400);
      await crm.batchCreate('PRODUCT', [{ properties: { [key]: 'taken' } }]);
      expect(await statusOf(crm.batchCreate('PRODUCT', [{ properties: { [key]: 'taken' } }]))).toBe(409);
    });

    it('when contacts are upserted by e-mail, then case does not matter: a second e-mail of another case updates the same contact', async () => {
      const local = unique('ada');
      const key = unique('key');
      await ensureProperty(crm, 'CONTACT', 'email');
      await ensureProperty(crm, 'CONTACT', 'firstname');
      await ensureProperty(crm, 'CONTACT', key, 'string', true);
      const [ada] = await crm.batchUpsert('CONTACT', 'email', [{ id: `${local}@Example.com`, properties: { firstname: 'Ada', [key]: 'k1' } }]);
      const [again] = await crm.batchUpsert('CONTACT', 'email', [
        { id: `${local.toUpperCase()}@EXAMPLE.COM`, properties: { firstname: 'Augusta', [key]: 'k2' } },
      ]);
      expect(again.id).toBe(ada.id);
      expect((await crm.batchRead('CONTACT', [ada.id], ['firstname', key]))[0].properties).toEqual({ firstname: 'Augusta', [key]: 'k2' });
      // The sync key it gave up is free again; the one it holds is not.
      await crm.batchUpsert('CONTACT', key, [{ id: 'k1', properties: { email: `${local}.other@example.com` } }]);
      expect(await statusOf(crm.batchUpsert('CONTACT', key, [{ id: 'k3', properties: { email: `${local}@example.com` } }]))).toBe(409);
    });

    it('when a contact is created or updated with an e-mail another contact holds, in any case, then 409 names the existing contact', async () => {
      const local = unique('grace');
      await ensureProperty(crm, 'CONTACT', 'email');
      const [grace, other] = await crm.batchCreate('CONTACT', [
        { properties: { email: `${local}@example.com` } },
        { properties: { email: `${local}.2@example.com` } },
      ]);
      const refusedCreate = await crm.batchCreate('CONTACT', [{ properties: { email: `${local.toUpperCase()}@example.com` } }]).catch((error: Error) => error);
      expect(refusedCreate).toMatchObject({ status: 409, message: expect.stringContaining(`Existing ID: ${grace.id}`) });
      expect(await statusOf(crm.batchUpdate('CONTACT', [{ id: other.id, properties: { email: `${local}@EXAMPLE.com` } }]))).toBe(409);
      // A contact that changes its e-mail frees the old one.
      await crm.batchUpdate('CONTACT', [{ id: grace.id, properties: { email: `${local}.3@example.com` } }]);
      await crm.batchUpdate('CONTACT', [{ id: other.id, properties: { email: `${local}@example.com` } }]);
      expect((await crm.batchRead('CONTACT', [other.id], ['email']))[0].properties.email).toBe(`${local}@example.com`);
    });

    it('when a property is created, then it is listed with its type; created again, 409; deleted, gone; deleted again, 404', async () => {
      const size = unique('size');
      await ensureGroup(crm, 'DEAL');
      await crm.createProperty('DEAL', crmProperty(size, 'Size', 'number'));
      expect((await crm.listProperties('DEAL')).find((property) => property.name === size)).toMatchObject({
        name: size,
        label: 'Size',
        type: 'number',
        fieldType: 'number',
        groupName: ECOMM_PROPERTY_GROUP.name,
      });
      expect(await statusOf(crm.createProperty('DEAL', crmProperty(size, 'Size', 'number')))).toBe(409);
      await crm.deleteProperty('DEAL', size);
      expect((await crm.listProperties('DEAL')).map((property) => property.name)).not.toContain(size);
      expect(await statusOf(crm.deleteProperty('DEAL', size))).toBe(404);
    });

    it('when an enumeration property is created with options, then it is listed with them, label and value', async () => {
      const tier = unique('tier');
      await ensureGroup(crm, 'CONTACT');
      const options = [
        { label: 'Gold', value: 'gold' },
        { label: 'Silver', value: 'silver' },
      ];
      await crm.createProperty('CONTACT', { ...crmProperty(tier, 'Tier', 'enumeration'), options });
      expect((await crm.listProperties('CONTACT')).find((property) => property.name === tier)).toMatchObject({ type: 'enumeration', options });
      await crm.deleteProperty('CONTACT', tier);
    });

    describeCrmPipelines(() => crm);

    it('when objects are associated, then known pairs are accepted (again too), and a pair naming an unknown or archived object is refused with 404', async () => {
      await ensureProperty(crm, 'DEAL', 'dealname');
      await ensureProperty(crm, 'CONTACT', 'email');
      const [deal] = await crm.batchCreate('DEAL', [{ properties: { dealname: 'Order' } }]);
      const [contact, archived] = await crm.batchCreate('CONTACT', [{ properties: { email: `${unique('c')}@example.com` } }, { properties: {} }]);
      await crm.batchArchive('CONTACT', [archived.id]);
      await crm.batchAssociate('DEAL', 'CONTACT', [{ fromId: deal.id, toId: contact.id }]);
      await crm.batchAssociate('DEAL', 'CONTACT', [{ fromId: deal.id, toId: contact.id }]);
      expect(await statusOf(crm.batchAssociate('DEAL', 'CONTACT', [{ fromId: deal.id, toId: archived.id }]))).toBe(404);
      expect(await statusOf(crm.batchAssociate('DEAL', 'CONTACT', [{ fromId: 999_999_999, toId: contact.id }]))).toBe(404);
    });
  });
}
