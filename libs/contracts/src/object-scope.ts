import type { Tenant } from './amqp-messages';
import type { ObjectType } from './enums';

/**
 * The objects of one type in one store of one tenant: what every per-object read and write is
 * scoped to. Messages, waiting and parked changes and the applier's change groups carry these
 * three fields, so any of them can be passed where a scope is asked for.
 */
export interface ObjectScope {
  tenant: Tenant;
  storeId: string;
  objectType: ObjectType;
}
