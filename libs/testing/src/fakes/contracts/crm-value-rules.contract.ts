import type { CrmPort, CrmPropertyInfo } from '@ecomm-sync/crm-client';
import { ECOMM_PROPERTY_GROUP } from '@ecomm-sync/domain';
import { ensureGroup, ensureProperty, statusOf, unique } from './crm-port-contract-helpers';

const options = [
  { label: 'Small', value: 'small' },
  { label: 'Large', value: 'large' },
];

/**
 * The values a CRM property takes, as the hosted CRM judges them (it refuses the whole input
 * otherwise): an enumeration its options' values, a number digits with one optional leading minus
 * and one point, a date (a day) midnight UTC only, dates as epoch milliseconds or ISO 8601 text, a
 * boolean true or false, a contact's e-mail an address whose domain ends in a top-level domain. Part of the CrmPort contract, so that FakeCrm
 * and HttpCrmClient (the vendor's SDK) on the built-in CRM agree with the hosted CRM and each other.
 */
export function describeCrmValueRules(crmOf: () => CrmPort): void {
  it.each<[string, string, 'resolved' | 400, Pick<CrmPropertyInfo, 'type' | 'fieldType'> & { options?: typeof options }]>([
    ['a select enumeration', 'large', 'resolved', { type: 'enumeration', fieldType: 'select', options }],
    ['a select enumeration', 'medium', 400, { type: 'enumeration', fieldType: 'select', options }],
    ['a checkbox enumeration', 'small;large', 'resolved', { type: 'enumeration', fieldType: 'checkbox', options }],
    ['a checkbox enumeration', 'small;medium', 400, { type: 'enumeration', fieldType: 'checkbox', options }],
    ['a number', '-4.68', 'resolved', { type: 'number', fieldType: 'number' }],
    ['a number', '1e-7', 400, { type: 'number', fieldType: 'number' }],
    ['a number', '4,68', 400, { type: 'number', fieldType: 'number' }],
    ['a date', '1430438400000', 'resolved', { type: 'date', fieldType: 'date' }],
    ['a date', '1430438400001', 400, { type: 'date', fieldType: 'date' }],
    ['a date time', '1430438400001', 'resolved', { type: 'datetime', fieldType: 'date' }],
    ['a date', '2015-05-01', 'resolved', { type: 'date', fieldType: 'date' }],
    ['a date', '2015-02-30', 400, { type: 'date', fieldType: 'date' }],
    ['a date', '2015-05-01T10:00:00Z', 400, { type: 'date', fieldType: 'date' }],
    ['a date time', '2015-05-01T10:00:17.883Z', 'resolved', { type: 'datetime', fieldType: 'date' }],
    ['a date time', '2015-05-01T10:00:00+01:00', 'resolved', { type: 'datetime', fieldType: 'date' }],
    ['a date time', '2015-05-01', 400, { type: 'datetime', fieldType: 'date' }],
    ['a date time', '2015-05-01T10:00:00-18:00', 'resolved', { type: 'datetime', fieldType: 'date' }],
    ['a date time', '2015-05-01T10:00:00+18:01', 400, { type: 'datetime', fieldType: 'date' }],
    ['a date time', 'tomorrow', 400, { type: 'datetime', fieldType: 'date' }],
    ['a boolean', 'true', 'resolved', { type: 'bool', fieldType: 'booleancheckbox' }],
    ['a boolean', 'yes', 400, { type: 'bool', fieldType: 'booleancheckbox' }],
  ])('when %s property is given "%s", then the write is %s', async (_kind, value, outcome, definition) => {
    const crm = crmOf();
    const name = unique('valued');
    await ensureGroup(crm, 'PRODUCT');
    await crm.createProperty('PRODUCT', { name, label: name, groupName: ECOMM_PROPERTY_GROUP.name, ...definition });
    expect(await statusOf(crm.batchCreate('PRODUCT', [{ properties: { [name]: value } }]))).toBe(outcome);
  });

  it.each<[string, 'resolved' | 400]>([
    ['ann.{u}+shop@mail.example.co.uk', 'resolved'],
    ['{u}.example.lcom', 400],
    ['ann.{u}@localhost', 400],
    ['ann.{u}@example.c0m', 400],
    ['"ann {u}"@example.com', 400],
    [`${'a'.repeat(60)}{u}@example.com`, 400],
  ])('when a contact is given the e-mail address "%s", then the write is %s', async (address, outcome) => {
    // A contact's e-mail is its unique value: {u} makes each run's address its own.
    const email = address.replace('{u}', unique('e'));
    const crm = crmOf();
    await ensureProperty(crm, 'CONTACT', 'email');
    expect(await statusOf(crm.batchCreate('CONTACT', [{ properties: { email } }]))).toBe(outcome);
    // The same address as an upsert's id, the value of its idProperty: checked the same.
    expect(await statusOf(crm.batchUpsert('CONTACT', 'email', [{ id: `up.${email}`, properties: {} }]))).toBe(outcome);
  });
}
