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
 * and one point, a date (a day) midnight UTC only. Part of the CrmPort contract, so that FakeCrm,
 * the built-in CRM and the SDK's path agree with the hosted CRM and with one another.
 */
export function describeCrmValueRules(crmOf: () => CrmPort): void {
  it.each<[string, Pick<CrmPropertyInfo, 'type' | 'fieldType'> & { options?: typeof options }, string, 'resolved' | 400]>([
    ['a select enumeration', { type: 'enumeration', fieldType: 'select', options }, 'large', 'resolved'],
    ['a select enumeration', { type: 'enumeration', fieldType: 'select', options }, 'medium', 400],
    ['a checkbox enumeration', { type: 'enumeration', fieldType: 'checkbox', options }, 'small;large', 'resolved'],
    ['a checkbox enumeration', { type: 'enumeration', fieldType: 'checkbox', options }, 'small;medium', 400],
    ['a number', { type: 'number', fieldType: 'number' }, '-4.68', 'resolved'],
    ['a number', { type: 'number', fieldType: 'number' }, '1e-7', 400],
    ['a number', { type: 'number', fieldType: 'number' }, '4,68', 400],
    ['a date', { type: 'date', fieldType: 'date' }, '1430438400000', 'resolved'],
    ['a date', { type: 'date', fieldType: 'date' }, '1430438400001', 400],
    ['a date time', { type: 'datetime', fieldType: 'date' }, '1430438400001', 'resolved'],
  ])('when %s property is given "%s", then the write is %s', async (_kind, definition, value, outcome) => {
    const crm = crmOf();
    const name = unique('valued');
    await ensureGroup(crm, 'PRODUCT');
    await crm.createProperty('PRODUCT', { name, label: name, groupName: ECOMM_PROPERTY_GROUP.name, ...definition });
    expect(await statusOf(crm.batchCreate('PRODUCT', [{ properties: { [name]: value } }]))).toBe(outcome);
  });
}
