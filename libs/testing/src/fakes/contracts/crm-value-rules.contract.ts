import type { CrmPort, CrmPropertyInfo } from '@ecomm-sync/crm-client';
import { ECOMM_PROPERTY_GROUP } from '@ecomm-sync/domain';
import { ensureGroup, statusOf, unique } from './crm-port-contract-helpers';

const options = [
  { label: 'Small', value: 'small' },
  { label: 'Large', value: 'large' },
];

/**
 * The values a CRM property takes, as the hosted CRM judges them (it refuses the whole input
 * otherwise): an enumeration its options' values, a number digits with one optional leading minus
 * and one point, a date (a day) midnight UTC only. Part of the CrmPort contract, so that FakeCrm
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
  ])('when %s property is given "%s", then the write is %s', async (_kind, value, outcome, definition) => {
    const crm = crmOf();
    const name = unique('valued');
    await ensureGroup(crm, 'PRODUCT');
    await crm.createProperty('PRODUCT', { name, label: name, groupName: ECOMM_PROPERTY_GROUP.name, ...definition });
    expect(await statusOf(crm.batchCreate('PRODUCT', [{ properties: { [name]: value } }]))).toBe(outcome);
  });
}
