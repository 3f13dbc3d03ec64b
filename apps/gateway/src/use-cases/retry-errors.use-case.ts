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
    return { objectsQueued: 1, more: false, notStored: 0 };
  }

  async retryType(scope: ConsoleScope, filter: { errorType: ErrorType; storeId?: string; objectType?: ObjectType }): Promise<ConsoleRetryResult> {
    // Read everything first: the errors resolve while the retry runs, which would shift an offset.
    const groups = new Map<string, ObjectToRetry[]>();
    let seen = 0;
    let more = false;
    for (let offset = 0; seen < this.maxObjects; offset += 200) {
      const { errors, hasMore } = await this.repositories.syncErrors.list({ ...scope, ...filter, includeResolved: false, limit: 200, offset });
      for (const error of errors) {
        const key = keyOf(error.portalId, error.appId ?? null, error.storeId, error.objectType);
        const group = groups.get(key) ?? [];
        if (!group.some((o) => o.externalObjectId === error.externalObjectId)) {
          if (seen === this.maxObjects) {
            more = true;
            break;
          }
          group.push({
            portalId: error.portalId,
            appId: error.appId ?? null,
            storeId: error.storeId,
            objectType: error.objectType,
            externalObjectId: error.externalObjectId,
          });
          seen++;
        }
        groups.set(key, group);
      }
      if (!hasMore) break;
      if (seen === this.maxObjects) more = true;
    }
    let queued = 0;
    for (const objects of groups.values()) {
      const [{ portalId, appId, storeId, objectType }] = objects;
      const tenant = { portalId, appId };
      // Only objects with a stored state: a refresh of the others would do nothing and be counted as sent.
      const stored = await this.repositories.objectStates.stored(
        { tenant, storeId, objectType },
        objects.map((o) => o.externalObjectId),
      );
      const ids = objects.map((o) => o.externalObjectId).filter((id) => stored.has(id));
      for (let from = 0; from < ids.length; from += IDS_PER_MESSAGE) {
        await this.refresher.refresh({ kind: 'refresh-objects', tenant, storeId, objectType, externalObjectIds: ids.slice(from, from + IDS_PER_MESSAGE) });
      }
      queued += ids.length;
    }
    return { objectsQueued: queued, more, notStored: seen - queued };
  }
}
