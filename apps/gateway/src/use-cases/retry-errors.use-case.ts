import type { ConsoleRetryResult, ErrorType, ObjectType, RefreshObjectsMessage } from '@ecomm-sync/contracts';
import { inConsoleScope, type ConsoleScope, type Repositories } from '@ecomm-sync/data-access';
import { AppError } from '@ecomm-sync/runtime';
import { keyOf } from '@ecomm-sync/domain';

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

/** Most ids in one refresh message (its schema's limit). */
const IDS_PER_MESSAGE = 1000;
/** Errors read per page, and the most pages one retry of an error type reads. */
const PAGE = 200;
const MAX_PAGES = 50;

/** Retry from the console: one object, or every object with an open error of a type (decision 0033). */
export class RetryErrorsUseCase {
  constructor(
    private readonly repositories: Pick<Repositories, 'syncErrors' | 'objectStates'>,
    private readonly refresher: ObjectRefreshPort,
    /** Most objects one retry of a whole error type sends; the answer says when more are left. */
    private readonly maxObjects = 5000,
  ) {}

  async retryObject(scope: ConsoleScope, object: ObjectToRetry): Promise<ConsoleRetryResult> {
    // 404, not 403: saying more would tell that another tenant's object exists.
    if (!inConsoleScope(scope)(object))
      throw AppError.notFound(`No object ${object.objectType} ${object.externalObjectId} in store ${object.storeId} is visible to this credential`);
    const { portalId, appId, storeId, objectType, externalObjectId } = object;
    // The refresh re-applies what is stored: for an object never received it would do nothing, and say it did.
    if ((await this.repositories.objectStates.stored({ tenant: { portalId, appId }, storeId, objectType }, [externalObjectId])).size === 0)
      throw AppError.notFound(
        `Object ${objectType} ${externalObjectId} in store ${storeId} has no stored state to re-apply: nothing was received for it, or its batch was set aside before it was merged (redrive the dead-lettered batch to merge it)`,
      );
    await this.refresher.refresh({ kind: 'refresh-objects', tenant: { portalId, appId }, storeId, objectType, externalObjectIds: [externalObjectId] });
    return { objectsQueued: 1, more: false, setAside: 0 };
  }

  /**
   * Every object with an open error of a type, up to `maxObjects` sent. An object is sent when it
   * has a stored state and an error a re-apply can clear; the others are counted apart (`setAside`):
   * their error waits for a batch set aside before it was merged (the mapper's dead letters), which
   * only that batch's merge resolves, and a re-apply of what is stored does not hold it.
   */
  async retryType(scope: ConsoleScope, filter: { errorType: ErrorType; storeId?: string; objectType?: ObjectType }): Promise<ConsoleRetryResult> {
    // Read everything first: the errors resolve while the retry runs, which would shift an offset.
    const groups = new Map<string, Map<string, ObjectToRetry>>();
    const waiting = new Map<string, ObjectToRetry>();
    let seen = 0;
    let more = false;
    for (let page = 0; page < MAX_PAGES && !more; page++) {
      const { errors, hasMore } = await this.repositories.syncErrors.list({ ...scope, ...filter, includeResolved: false, limit: PAGE, offset: page * PAGE });
      for (const error of errors) {
        const object = {
          portalId: error.portalId,
          appId: error.appId ?? null,
          storeId: error.storeId,
          objectType: error.objectType,
          externalObjectId: error.externalObjectId,
        };
        const key = keyOf(object.portalId, object.appId, object.storeId, object.objectType);
        const objectKey = `${key}\u0000${object.externalObjectId}`;
        // Not counted towards the most sent: a retry again would read the same ones first.
        if (error.setAsideBatchId) {
          waiting.set(objectKey, object);
          continue;
        }
        const group = groups.get(key) ?? new Map<string, ObjectToRetry>();
        if (group.has(object.externalObjectId)) continue;
        if (seen === this.maxObjects) {
          more = true;
          break;
        }
        group.set(object.externalObjectId, object);
        groups.set(key, group);
        seen++;
      }
      if (!hasMore) break;
      if (page === MAX_PAGES - 1) more = true;
    }
    let queued = 0;
    for (const [key, group] of groups) {
      const objects = [...group.values()];
      const [{ portalId, appId, storeId, objectType }] = objects;
      const tenant = { portalId, appId };
      // Only objects with a stored state: a refresh of the others would do nothing and be counted as sent.
      const stored = await this.repositories.objectStates.stored({ tenant, storeId, objectType }, [...group.keys()]);
      const ids = [...group.keys()].filter((id) => stored.has(id));
      for (const id of group.keys()) {
        if (stored.has(id)) waiting.delete(`${key}\u0000${id}`);
        else waiting.set(`${key}\u0000${id}`, group.get(id)!);
      }
      for (let from = 0; from < ids.length; from += IDS_PER_MESSAGE) {
        await this.refresher.refresh({ kind: 'refresh-objects', tenant, storeId, objectType, externalObjectIds: ids.slice(from, from + IDS_PER_MESSAGE) });
      }
      queued += ids.length;
    }
    return { objectsQueued: queued, more, setAside: waiting.size };
  }
}
