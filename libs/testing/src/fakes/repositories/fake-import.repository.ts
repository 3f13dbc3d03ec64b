import type { ObjectType, Tenant } from '@ecomm-sync/contracts';
import {
  CAS_LOST,
  inConsoleScope,
  retryCompareAndSet,
  type ConsoleScope,
  type ImportItem,
  type ImportRecord,
  type ImportRepository,
  type WebhookAttempt,
} from '@ecomm-sync/data-access';
import { importStateChange, importTransition, releaseIsStale, type ImportEvent, type ImportState } from '@ecomm-sync/domain';
import { isObjectId, newObjectId } from '../object-ids';
import { copy, type PublicOf } from '../public-of';
import { InMemoryCasStore } from './in-memory-cas-store';

type NewImport = Parameters<ImportRepository['create']>[0];
type StoredImport = Omit<ImportRecord, 'rev'>;

/** ImportRepository in memory; describeImportRepositoryContract and describeImportReleaseContract hold it to the real one. */
export class FakeImportRepository implements PublicOf<ImportRepository> {
  private readonly imports = new InMemoryCasStore<StoredImport>();
  /** Pages by `importId|objectType`, then by page number. */
  private readonly pages = new Map<string, Map<number, ImportItem[]>>();
  private readonly attempts = new Map<string, WebhookAttempt[]>();

  async create(record: NewImport): Promise<ImportRecord | null> {
    const { tenant, storeId, importStartedAt } = record;
    if (await this.find(tenant, storeId, importStartedAt)) return null;
    const importId = newObjectId();
    this.imports.insert(importId, {
      ...record,
      importId,
      failureReason: null,
      completedAt: null,
      releasedThrough: null,
      releasedAt: null,
      releaseProgressAt: null,
      releaseOwner: null,
      webhookRequestedAt: null,
      webhookProblem: null,
      releaseProblem: null,
      failedAt: null,
    });
    return this.findById(importId);
  }

  async findById(importId: string): Promise<ImportRecord | null> {
    const found = isObjectId(importId) ? this.imports.get(importId) : null;
    return found ? { ...found.value, rev: found.rev } : null;
  }

  async find(tenant: Tenant, storeId: string, importStartedAt: number): Promise<ImportRecord | null> {
    const found = this.records().find(
      (record) =>
        record.tenant.portalId === tenant.portalId &&
        record.tenant.appId === tenant.appId &&
        record.storeId === storeId &&
        record.importStartedAt === importStartedAt,
    );
    return found ?? null;
  }

  async compareAndSet(importId: string, expectedRev: number, next: ImportState): Promise<boolean> {
    const current = this.imports.get(importId);
    if (!current) return false;
    return this.imports.compareAndSet(importId, expectedRev, { ...current.value, ...importStateChange(next) });
  }

  async putPage(importId: string, objectType: ObjectType, pageNumber: number, messages: readonly ImportItem[]): Promise<void> {
    const key = `${importId}|${objectType}`;
    const pages = this.pages.get(key) ?? new Map<number, ImportItem[]>();
    pages.set(pageNumber, copy([...messages]));
    this.pages.set(key, pages);
  }

  async getPage(importId: string, objectType: ObjectType, pageNumber: number): Promise<ImportItem[] | null> {
    const page = this.pages.get(`${importId}|${objectType}`)?.get(pageNumber);
    return page ? copy(page) : null;
  }

  async pagesOf(importId: string, objectType: ObjectType, afterPage: number, limit: number): Promise<{ pageNumber: number; messages: ImportItem[] }[]> {
    const pages = [...(this.pages.get(`${importId}|${objectType}`) ?? new Map<number, ImportItem[]>())];
    return pages
      .filter(([pageNumber]) => pageNumber > afterPage)
      .sort(([a], [b]) => a - b)
      .slice(0, limit)
      .map(([pageNumber, messages]) => ({ pageNumber, messages: copy(messages) }));
  }

  async unreleased(
    before: number,
    limit: number,
    { exceptPortals = [], exceptImports = [] }: { exceptPortals?: readonly number[]; exceptImports?: readonly string[] } = {},
  ): Promise<ImportRecord[]> {
    return this.records()
      .filter(
        (record) =>
          !exceptPortals.includes(record.tenant.portalId) &&
          !exceptImports.includes(record.importId) &&
          record.status === 'complete' &&
          record.releasedAt === null &&
          record.completedAt !== null &&
          record.completedAt <= before &&
          releaseIsStale(record, before),
      )
      .sort((a, b) => a.completedAt! - b.completedAt!)
      .slice(0, limit);
  }

  async releaseBacklog(before: number): Promise<{ portals: number; oldestCompletedAt: number | null }> {
    const unreleased = this.records().filter((record) => record.status === 'complete' && record.releasedAt === null);
    const running = new Set(unreleased.filter((record) => !releaseIsStale(record, before)).map((record) => record.tenant.portalId));
    const waiting = unreleased.filter(
      (record) => record.completedAt !== null && record.completedAt <= before && releaseIsStale(record, before) && !running.has(record.tenant.portalId),
    );
    const completed = waiting.map((record) => record.completedAt!).sort((a, b) => a - b);
    return { portals: new Set(waiting.map((record) => record.tenant.portalId)).size, oldestCompletedAt: completed[0] ?? null };
  }

  async list(scope: ConsoleScope, page: { offset: number; limit: number }): Promise<{ imports: ImportRecord[]; hasMore: boolean }> {
    const inScope = inConsoleScope(scope);
    const found = this.records()
      .filter((record) => inScope(record.tenant))
      // Newest first; at the same instant, the one stored last first (the ids grow, as MongoDB's do).
      .sort((a, b) => b.importStartedAt - a.importStartedAt || (a.importId < b.importId ? 1 : -1));
    return { imports: found.slice(page.offset, page.offset + page.limit), hasMore: found.length > page.offset + page.limit };
  }

  async recordAttempt(requestId: string, attempt: WebhookAttempt): Promise<void> {
    this.attempts.set(requestId, [...(this.attempts.get(requestId) ?? []), copy(attempt)]);
  }

  async attemptsOf(requestId: string): Promise<WebhookAttempt[]> {
    return copy([...(this.attempts.get(requestId) ?? [])].sort((a, b) => a.attempt - b.attempt));
  }

  private records(): ImportRecord[] {
    return this.imports.all().map(({ rev, value }) => ({ ...value, rev }));
  }
}

/**
 * Moves a stored import (fake or real) through `events` with the import machine and
 * compare-and-set, deciding again on a fresh read when a write lost, as the use cases do: for
 * arranging tests, and for racing writers against a use case. Throws on a refusal.
 */
export async function moveImport(
  imports: Pick<PublicOf<ImportRepository>, 'findById' | 'compareAndSet'>,
  importId: string,
  ...events: ImportEvent[]
): Promise<ImportRecord> {
  for (const event of events) {
    const outcome = await retryCompareAndSet(async () => {
      const found = await imports.findById(importId);
      if (!found) throw new Error(`no import ${importId}`);
      const transition = importTransition(found, event);
      if ('refused' in transition) throw new Error(`${event.kind} refused: ${transition.refused.message}`);
      return transition.next === found || (await imports.compareAndSet(importId, found.rev, transition.next)) || CAS_LOST;
    });
    if (outcome === CAS_LOST) throw new Error(`${event.kind}: other writes came first every time`);
  }
  return (await imports.findById(importId))!;
}
