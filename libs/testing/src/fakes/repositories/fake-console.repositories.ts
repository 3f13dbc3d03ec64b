import type { ObjectScope } from '@ecomm-sync/contracts';
import {
  type ConsoleActivityRepository,
  type ConsoleOverviewRepository,
  type ConsoleReportRepository,
  type ConsoleScope,
  emptyStoredCounts,
  type FlaggedObject,
  inConsoleScope,
  type ObjectKey,
  type StoredObjectCounts,
  type StoredOpenErrors,
  type StoredStoreLabel,
} from '@ecomm-sync/data-access';
import { keyOf } from '@ecomm-sync/domain';
import type { PublicOf } from '../public-of';
import { FakeObjectStateRepository } from './fake-object-state.repository';
import { FakeObjectSyncRepository } from './fake-object-sync.repository';
import { FakeRawMessageRepository } from './fake-raw-message.repository';
import { FakeStoreRepository } from './fake-store.repository';
import { FakeSyncErrorRepository } from './fake-sync-error.repository';
import { FakeWaitingObjectRepository } from './fake-waiting-object.repository';

/** The fakes of the collections the console's read models read, as the real ones read the collections. */
export interface ConsoleSources {
  objectStates: FakeObjectStateRepository;
  objectSyncs: FakeObjectSyncRepository;
  syncErrors: FakeSyncErrorRepository;
  waitingObjects: FakeWaitingObjectRepository;
  stores: FakeStoreRepository;
  rawMessages: FakeRawMessageRepository;
}

const groupKey = (key: Omit<ObjectKey, 'externalObjectId'>) => keyOf(key.portalId, key.appId, key.storeId, key.objectType);

/** ConsoleOverviewRepository over the fakes of the collections it reads. */
export class FakeConsoleOverviewRepository implements PublicOf<ConsoleOverviewRepository> {
  constructor(private readonly sources: Pick<ConsoleSources, 'objectStates' | 'objectSyncs' | 'syncErrors' | 'waitingObjects' | 'stores'>) {}

  async objectCounts(scope: ConsoleScope, now: number): Promise<StoredObjectCounts[]> {
    const wanted = inConsoleScope(scope);
    const rows = new Map<string, StoredObjectCounts>();
    const row = (key: Omit<ObjectKey, 'externalObjectId'>) => {
      const id = groupKey(key);
      if (!rows.has(id)) rows.set(id, emptyStoredCounts(key));
      return rows.get(id)!;
    };
    for (const key of this.sources.objectStates.scan().filter(wanted)) row(key).received++;
    for (const sync of this.sources.objectSyncs.scan().filter(wanted)) {
      if (sync.lastProcessedAt !== null) {
        const counts = row(sync);
        counts.processed++;
        counts.lastProcessedAt = Math.max(counts.lastProcessedAt ?? sync.lastProcessedAt, sync.lastProcessedAt);
      }
      if (sync.crmId !== null) row(sync)[sync.archived ? 'archivedInCrm' : 'inCrm']++;
    }
    const flagged = new Map<string, { key: ObjectKey; facts: FlaggedObject }>();
    const flag = (key: ObjectKey, what: 'waiting' | 'openError') => {
      const id = keyOf(key.portalId, key.appId, key.storeId, key.objectType, key.externalObjectId);
      const entry = flagged.get(id) ?? { key, facts: { waiting: false, openError: false, processed: false, crmId: null, archived: false } };
      entry.facts[what] = true;
      flagged.set(id, entry);
    };
    for (const entry of this.sources.waitingObjects.scan()) {
      if (entry.reapply || entry.until <= now) continue;
      const key = { ...entry.tenant, storeId: entry.storeId, objectType: entry.objectType, externalObjectId: entry.change.externalObjectId };
      if (!wanted(key)) continue;
      row(key).waiting++;
      flag(key, 'waiting');
    }
    const withErrors = new Map<string, Set<string>>();
    for (const error of this.sources.syncErrors.scan().filter((candidate) => candidate.status === 'OPEN' && wanted(candidate))) {
      const id = groupKey(error);
      withErrors.set(id, (withErrors.get(id) ?? new Set()).add(error.externalObjectId));
      row(error);
      flag(
        { portalId: error.portalId, appId: error.appId, storeId: error.storeId, objectType: error.objectType, externalObjectId: error.externalObjectId },
        'openError',
      );
    }
    for (const [id, objects] of withErrors) rows.get(id)!.withOpenErrors = objects.size;
    const syncs = new Map(
      this.sources.objectSyncs.scan().map((sync) => [keyOf(sync.portalId, sync.appId, sync.storeId, sync.objectType, sync.externalObjectId), sync]),
    );
    for (const [id, { key, facts }] of flagged) {
      const sync = syncs.get(id);
      if (sync) Object.assign(facts, { processed: sync.lastProcessedAt !== null, crmId: sync.crmId, archived: sync.archived });
      row(key).flagged.push(facts);
    }
    return [...rows.values()];
  }

  async openErrorsByType(scope: ConsoleScope): Promise<StoredOpenErrors[]> {
    const wanted = inConsoleScope(scope);
    const groups = new Map<string, StoredOpenErrors>();
    for (const error of this.sources.syncErrors.scan().filter((candidate) => candidate.status === 'OPEN' && wanted(candidate))) {
      const id = keyOf(error.portalId, error.appId, error.storeId, error.type);
      const group = groups.get(id) ?? { portalId: error.portalId, appId: error.appId, storeId: error.storeId, type: error.type, count: 0 };
      group.count++;
      groups.set(id, group);
    }
    return [...groups.values()];
  }

  async storeLabels(scope: ConsoleScope): Promise<StoredStoreLabel[]> {
    const wanted = inConsoleScope(scope);
    return this.sources.stores
      .scan()
      .filter(wanted)
      .map(({ portalId, appId, store }) => ({ portalId, appId, storeId: store.id, label: store.label }));
  }
}

/** ConsoleReportRepository over the fake object syncs. */
export class FakeConsoleReportRepository implements PublicOf<ConsoleReportRepository> {
  constructor(private readonly sources: Pick<ConsoleSources, 'objectSyncs'>) {}

  async crmIds({ tenant, storeId, objectType }: ObjectScope, limit: number): Promise<{ ids: number[]; more: boolean }> {
    const ids = this.sources.objectSyncs
      .scan()
      .filter(
        (sync) =>
          sync.portalId === tenant.portalId &&
          sync.appId === (tenant.appId ?? null) &&
          sync.storeId === storeId &&
          sync.objectType === objectType &&
          sync.crmId !== null &&
          !sync.archived,
      )
      .map((sync) => sync.crmId!)
      .sort((a, b) => a - b);
    return { ids: ids.slice(0, limit), more: ids.length > limit };
  }
}

/** ConsoleActivityRepository over the fake raw messages and object syncs. */
export class FakeConsoleActivityRepository implements PublicOf<ConsoleActivityRepository> {
  constructor(private readonly sources: Pick<ConsoleSources, 'objectSyncs' | 'rawMessages' | 'syncErrors'>) {}

  async times(scope: ConsoleScope, since: number, limit: number): Promise<{ received: number[]; applied: number[]; more: boolean }> {
    const wanted = inConsoleScope(scope);
    const received = [...this.sources.rawMessages.messages.values()]
      .filter(({ batch }) => wanted({ portalId: batch.tenant.portalId, appId: batch.tenant.appId ?? null }) && batch.receivedAt >= since)
      .map(({ batch }) => batch.receivedAt);
    const failed = new Set(
      this.sources.syncErrors
        .scan()
        .filter((error) => error.status === 'OPEN')
        .map((error) => keyOf(error.portalId, error.appId, error.storeId, error.objectType, error.externalObjectId)),
    );
    const applied = this.sources.objectSyncs
      .scan()
      .filter(
        (sync) =>
          wanted(sync) &&
          sync.lastProcessedAt !== null &&
          sync.lastProcessedAt >= since &&
          sync.crmId !== null &&
          !sync.archived &&
          !failed.has(keyOf(sync.portalId, sync.appId, sync.storeId, sync.objectType, sync.externalObjectId)),
      )
      .map((sync) => sync.lastProcessedAt!);
    return { received: received.slice(0, limit), applied: applied.slice(0, limit), more: received.length > limit || applied.length > limit };
  }
}

/** Fakes of the collections the console reads, and its three read models over them: one world. */
export function fakeConsoleReadModels(
  sources: ConsoleSources = {
    objectStates: new FakeObjectStateRepository(),
    objectSyncs: new FakeObjectSyncRepository(),
    syncErrors: new FakeSyncErrorRepository(),
    waitingObjects: new FakeWaitingObjectRepository(),
    stores: new FakeStoreRepository(),
    rawMessages: new FakeRawMessageRepository(),
  },
) {
  return {
    ...sources,
    consoleOverview: new FakeConsoleOverviewRepository(sources),
    consoleReport: new FakeConsoleReportRepository(sources),
    consoleActivity: new FakeConsoleActivityRepository(sources),
  };
}
