import type { ConsoleRetryResult, ErrorType, ObjectType, RefreshObjectsMessage } from '@ecomm-sync/contracts';
import { inConsoleScope, type ConsoleScope, type ErrorQuery, type Repositories } from '@ecomm-sync/data-access';
import { AppError } from '@ecomm-sync/runtime';
import { keyOf, waitsForSetAside } from '@ecomm-sync/domain';
import { deletedStoreCheck } from './deleted-stores';

/**
 * The mapper's re-apply of stored objects (RefreshObjectsUseCase, `objects.refresh`): maps their
 * stored state with the settings in force and has the applier write it even where that revision
 * was applied. Nothing is re-sent by the integrator.
 */
export interface ObjectRefreshPort {
  refresh(message: RefreshObjectsMessage): Promise<void>;
}

export interface ObjectToRetry {
  portalId: number;
  appId: string | null;
  storeId: string;
  objectType: ObjectType;
  externalObjectId: string;
}

type TypeFilter = { errorType: ErrorType; storeId?: string; objectType?: ObjectType };

/** Most ids in one refresh message (its schema's limit). */
const IDS_PER_MESSAGE = 1000;
/** Errors read per page; the most pages read for the objects to send, and for those waiting for set-aside batches. */
const PAGE = 200;
const MAX_PAGES = 50;
const MAX_SET_ASIDE_PAGES = 5;

const SET_ASIDE = 'a batch set aside before it was merged (the service’s operators merge it by redriving it from its dead-letter queue)';
const objectOf = (error: { portalId: number; appId?: string | null; storeId: string; objectType: ObjectType; externalObjectId: string }): ObjectToRetry => ({
  portalId: error.portalId,
  appId: error.appId ?? null,
  storeId: error.storeId,
  objectType: error.objectType,
  externalObjectId: error.externalObjectId,
});
const keyOfObject = (o: ObjectToRetry) => `${keyOf(o.portalId, o.appId, o.storeId, o.objectType)}\u0000${o.externalObjectId}`;

/**
 * Retry from the console: one object, or every object with an open error of a type (decision 0033).
 * A retry re-applies what is stored, so it is not sent for an object with nothing stored, nor for an
 * error that waits for a batch set aside before it was merged (only that batch's merge resolves it).
 */
export class RetryErrorsUseCase {
  constructor(
    private readonly repositories: Pick<Repositories, 'syncErrors' | 'objectStates' | 'stores'>,
    private readonly refresher: ObjectRefreshPort,
    /** Most objects one retry of a whole error type sends; the answer says when more are left. */
    private readonly maxObjects = 5000,
  ) {}

  async retryObject(scope: ConsoleScope, object: ObjectToRetry): Promise<ConsoleRetryResult> {
    // 404, not 403: saying more would tell that another tenant's object exists.
    if (!inConsoleScope(scope)(object))
      throw AppError.notFound(`No object ${object.objectType} ${object.externalObjectId} in store ${object.storeId} is visible to this credential`);
    const { portalId, appId, storeId, objectType, externalObjectId } = object;
    const tenant = { portalId, appId };
    // The refresh re-applies what is stored: for an object never received it would do nothing, and say it did.
    if ((await this.repositories.objectStates.stored({ tenant, storeId, objectType }, [externalObjectId])).size === 0)
      throw AppError.notFound(
        `Object ${objectType} ${externalObjectId} in store ${storeId} has no stored state to re-apply: nothing was received for it, or its batch was set aside before it was merged (redrive the dead-lettered batch to merge it)`,
      );
    if (!(await this.storeExists(tenant, storeId)))
      throw AppError.conflict(
        `Object ${objectType} ${externalObjectId} is in store ${storeId}, which was deleted: a deleted store sends nothing more to the CRM; define it again (PUT /extensions/ecomm/v2/stores) to retry its objects`,
      );
    const open = await this.repositories.syncErrors.listForObject({ ...tenant, storeId, objectType, externalObjectId }, false);
    if (open.length > 0 && open.every(waitsForSetAside))
      throw AppError.conflict(`Object ${objectType} ${externalObjectId} in store ${storeId}: its open errors wait for ${SET_ASIDE}; a retry cannot clear them`);
    await this.refresher.refresh({ kind: 'refresh-objects', tenant, storeId, objectType, externalObjectIds: [externalObjectId] });
    return { objectsQueued: 1, more: false, notStored: 0, inDeletedStores: 0, setAside: 0, setAsideMore: false };
  }

  /**
   * Every object with an open error of the type a retry can clear, up to `maxObjects` sent; those
   * with nothing stored, those in stores deleted since, and those whose errors of the type all wait
   * for set-aside batches, are counted apart (the last from the first MAX_SET_ASIDE_PAGES pages of
   * such errors). Objects of deleted stores take no place among the `maxObjects`.
   */
  async retryType(scope: ConsoleScope, filter: TypeFilter): Promise<ConsoleRetryResult> {
    const inDeletedStore = deletedStoreCheck(this.repositories.stores);
    const inDeleted = new Set<string>();
    const { groups, more } = await this.objectsToSend(scope, filter, inDeletedStore, inDeleted);
    let queued = 0;
    let notStored = 0;
    const counted = new Set<string>(inDeleted);
    for (const objects of groups.values()) {
      const [{ portalId, appId, storeId, objectType }] = objects;
      const tenant = { portalId, appId };
      const stored = await this.repositories.objectStates.stored(
        { tenant, storeId, objectType },
        objects.map((o) => o.externalObjectId),
      );
      const ids = objects.filter((o) => stored.has(o.externalObjectId)).map((o) => o.externalObjectId);
      for (let from = 0; from < ids.length; from += IDS_PER_MESSAGE) {
        await this.refresher.refresh({ kind: 'refresh-objects', tenant, storeId, objectType, externalObjectIds: ids.slice(from, from + IDS_PER_MESSAGE) });
      }
      for (const o of objects) counted.add(keyOfObject(o));
      queued += ids.length;
      notStored += objects.length - ids.length;
    }
    const waiting = await this.waitingForSetAside(scope, filter, counted, inDeletedStore, inDeleted);
    return { objectsQueued: queued, more, notStored, inDeletedStores: inDeleted.size, setAside: waiting.count, setAsideMore: waiting.more };
  }

  /** Whether the tenant's store exists; `default` is every installed tenant's (the applier checks the install). */
  private async storeExists(tenant: { portalId: number; appId: string | null }, storeId: string): Promise<boolean> {
    return !(await deletedStoreCheck(this.repositories.stores)([{ ...tenant, storeId }]))({ ...tenant, storeId });
  }

  /**
   * The objects with an error of the type a retry can clear, by tenant, store and type; read first,
   * as the errors resolve while the retry runs. Those in deleted stores go to `inDeleted` instead.
   */
  private async objectsToSend(
    scope: ConsoleScope,
    filter: TypeFilter,
    inDeletedStore: ReturnType<typeof deletedStoreCheck>,
    inDeleted: Set<string>,
  ): Promise<{ groups: Map<string, ObjectToRetry[]>; more: boolean }> {
    const groups = new Map<string, ObjectToRetry[]>();
    const seen = new Set<string>();
    for (let page = 0; page < MAX_PAGES; page++) {
      const { errors, hasMore } = await this.list(scope, filter, false, page);
      const objects = errors.map(objectOf);
      const deleted = await inDeletedStore(objects);
      for (const object of objects) {
        if (deleted(object)) {
          inDeleted.add(keyOfObject(object));
          continue;
        }
        if (seen.has(keyOfObject(object))) continue;
        if (seen.size === this.maxObjects) return { groups, more: true };
        seen.add(keyOfObject(object));
        const key = keyOf(object.portalId, object.appId, object.storeId, object.objectType);
        const group = groups.get(key) ?? [];
        group.push(object);
        groups.set(key, group);
      }
      if (!hasMore) return { groups, more: false };
    }
    return { groups, more: true };
  }

  /**
   * How many objects with an error of the type wait for set-aside batches only (not among those
   * counted already, nor in deleted stores: those go to `inDeleted`), and whether more were left unread.
   */
  private async waitingForSetAside(
    scope: ConsoleScope,
    filter: TypeFilter,
    counted: ReadonlySet<string>,
    inDeletedStore: ReturnType<typeof deletedStoreCheck>,
    inDeleted: Set<string>,
  ): Promise<{ count: number; more: boolean }> {
    const waiting = new Set<string>();
    for (let page = 0; page < MAX_SET_ASIDE_PAGES; page++) {
      const { errors, hasMore } = await this.list(scope, filter, true, page);
      const objects = errors.map(objectOf);
      const deleted = await inDeletedStore(objects);
      for (const object of objects) {
        const key = keyOfObject(object);
        if (deleted(object)) inDeleted.add(key);
        else if (!counted.has(key)) waiting.add(key);
      }
      if (!hasMore) return { count: waiting.size, more: false };
    }
    return { count: waiting.size, more: true };
  }

  private async list(scope: ConsoleScope, filter: TypeFilter, setAside: boolean, page: number) {
    const query: ErrorQuery = { ...scope, ...filter, includeResolved: false, setAside, limit: PAGE, offset: page * PAGE };
    return this.repositories.syncErrors.list(query);
  }
}
