import type { ObjectScope } from '@ecomm-sync/contracts';
import { syncKeyOf } from './sync-key';

const scope: ObjectScope = { tenant: { portalId: 7, appId: null }, storeId: 'default', objectType: 'CONTACT' };

describe('syncKeyOf', () => {
  // Stored in the CRM as the unique sync-key property: these values must never change.
  it.each<[string, ObjectScope, string, number, string]>([
    ['a direct-mode object', scope, 'c-1', 0, '77230897be24bf8402fb884931504b1276581d05'],
    ['the same object of an application', { ...scope, tenant: { portalId: 7, appId: 'app-1' } }, 'c-1', 0, '3a6c8c710e1c62b24ed8ac57e96136e267cb98cb'],
    ['the same id in another store', { ...scope, storeId: 'eu' }, 'c-1', 0, '8f091dfef28bd6bbe060e0bd1d2bb09071d28529'],
    ['the same id of another type', { ...scope, objectType: 'DEAL' }, 'c-1', 0, '978aa45d94e6255b01645bb6c64437b225fadefb'],
    ['the next incarnation of the object', scope, 'c-1', 1, '9fa76107eba5c2122cb4f227d643a16bb61760bc'],
  ])('when the object is %s, then its sync key is the pinned one', (_case, objectScope, externalObjectId, generation, key) => {
    expect(syncKeyOf(objectScope, externalObjectId, generation)).toBe(key);
  });
});
