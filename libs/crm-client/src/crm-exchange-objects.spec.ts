import { SYNC_KEY_PROPERTY } from '@ecomm-sync/domain';
import { objectsCarried } from './crm-exchange-objects';

describe('the objects a CRM request carried', () => {
  it.each([
    [
      'an upsert by sync key, answered with the CRM ids',
      '/crm/v3/objects/deals/batch/upsert',
      { inputs: [{ id: 'k1', idProperty: SYNC_KEY_PROPERTY, properties: { dealname: 'A' } }] },
      { results: [{ id: '501', properties: { [SYNC_KEY_PROPERTY]: 'k1' } }] },
      ['DEAL:key:k1', 'DEAL:crm:501'],
    ],
    [
      'an upsert of contacts by e-mail that carries the sync key as a property',
      '/crm/v3/objects/contacts/batch/upsert',
      { inputs: [{ id: 'ada@example.com', idProperty: 'email', properties: { [SYNC_KEY_PROPERTY]: 'k2' } }] },
      undefined,
      ['CONTACT:key:k2'],
    ],
    ['an update of linked objects', '/crm/v3/objects/line_items/batch/update', { inputs: [{ id: '77', properties: {} }] }, undefined, ['LINE_ITEM:crm:77']],
    [
      // The answer holds the contact's stored sync key, another tenant's maybe: this batch is not that tenant's.
      'an update by CRM id answered with the stored sync-key property',
      '/crm/v3/objects/contacts/batch/update',
      { inputs: [{ id: '77', properties: { phone: '1' } }] },
      { results: [{ id: '77', properties: { [SYNC_KEY_PROPERTY]: 'someone-elses-key' } }] },
      ['CONTACT:crm:77'],
    ],
    ['an archive', '/crm/v3/objects/products/batch/archive', { inputs: [{ id: '8' }, { id: '9' }] }, undefined, ['PRODUCT:crm:8', 'PRODUCT:crm:9']],
    [
      'associations, both ends',
      '/crm/v4/associations/deals/contacts/batch/associate/default',
      { inputs: [{ from: { id: '5' }, to: { id: '6' } }] },
      { results: [] },
      ['DEAL:crm:5', 'CONTACT:crm:6'],
    ],
    ['a request about properties', '/crm/v3/properties/contacts', { name: 'x' }, { results: [{ id: '1' }] }, []],
    ['a pipeline request', '/crm/v3/pipelines/deals', undefined, { results: [{ id: '1' }] }, []],
    ['an unknown object path', '/crm/v3/objects/tickets/batch/update', { inputs: [{ id: '1' }] }, undefined, []],
    ['a body that is not JSON', '/crm/v3/objects/deals/batch/update', 'not json', undefined, []],
  ])('when the request is %s, then it names %j', (_case, path, request, answer, expected) => {
    expect(objectsCarried(path, request, answer)).toEqual(expected);
  });
});
