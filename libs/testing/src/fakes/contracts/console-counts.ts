import type { ObjectType, Tenant } from '@ecomm-sync/contracts';
import { emptyStoredCounts, type FlaggedObject, type StoredObjectCounts } from '@ecomm-sync/data-access';

type CountFields = 'received' | 'processed' | 'inCrm' | 'archivedInCrm' | 'withOpenErrors' | 'waiting';

/** The stored counts of one tenant, store and type: zero but for the values given. */
export const counts = (
  tenant: Tenant,
  storeId: string,
  objectType: ObjectType,
  values: Partial<Record<CountFields, number>> & { lastProcessedAt?: number | null; flagged?: FlaggedObject[] },
): StoredObjectCounts => ({ ...emptyStoredCounts({ portalId: tenant.portalId, appId: tenant.appId, storeId, objectType }), ...values });

/** The facts of a flagged object: nothing but what is given. */
export const facts = (over: Partial<FlaggedObject>): FlaggedObject => ({
  waiting: false,
  openError: false,
  processed: false,
  crmId: null,
  archived: false,
  ...over,
});
