import type { ObjectType, Tenant } from '@ecomm-sync/contracts';
import type { ImportItem, ImportRecord, ImportRepository, WebhookAttempt } from '@ecomm-sync/data-access';
import { isObjectId, newObjectId } from '../object-ids';
import { copy, type PublicOf } from '../public-of';

type NewImport = Parameters<ImportRepository['create']>[0];

const OPEN: ImportRecord['status'][] = ['initialized', 'receiving'];

/** ImportRepository in memory; describeImportRepositoryContract holds it to the real one. */
export class FakeImportRepository implements PublicOf<ImportRepository> {
  private readonly imports = new Map<string, ImportRecord>();
  /** Pages by `importId|objectType`, then by page number. */
  private readonly pages = new Map<string, Map<number, ImportItem[]>>();
  private readonly attempts = new Map<string, WebhookAttempt[]>();

  async create(record: NewImport): Promise<ImportRecord | null> {
    const { tenant, storeId, importStartedAt } = record;
    if (await this.find(tenant, storeId, importStartedAt)) return null;
    const importId = newObjectId();
    this.imports.set(importId, { ...copy(record), importId, failureReason: null, completedAt: null, releasedThrough: null, releasedAt: null });
    return this.findById(importId);
  }

  async findById(importId: string): Promise<ImportRecord | null> {
    const found = isObjectId(importId) ? this.imports.get(importId) : undefined;
    return found ? copy(found) : null;
  }

  async find(tenant: Tenant, storeId: string, importStartedAt: number): Promise<ImportRecord | null> {
    const found = [...this.imports.values()].find(
      (record) =>
        record.tenant.portalId === tenant.portalId &&
        record.tenant.appId === tenant.appId &&
        record.storeId === storeId &&
        record.importStartedAt === importStartedAt,
    );
    return found ? copy(found) : null;
  }

  async setExpectedCounts(importId: string, counts: Partial<Record<ObjectType, number | null>>): Promise<void> {
    const record = this.imports.get(importId);
    if (!record) return;
    for (const [type, count] of Object.entries(counts) as [ObjectType, number | null][]) {
      // Like `$set` of `types.<type>.expectedCount`: makes the type's entry when it has none.
      record.types[type] = { ...(record.types[type] ?? ({} as never)), expectedCount: count };
    }
  }

  async fail(importId: string, reason: string): Promise<void> {
    const record = this.imports.get(importId);
    if (record && OPEN.includes(record.status)) Object.assign(record, { status: 'failed', failureReason: reason });
  }

  async putPage(importId: string, objectType: ObjectType, pageNumber: number, messages: readonly ImportItem[]): Promise<void> {
    const key = `${importId}|${objectType}`;
    const pages = this.pages.get(key) ?? new Map<number, ImportItem[]>();
    pages.set(pageNumber, copy([...messages]));
    this.pages.set(key, pages);
    const record = this.imports.get(importId);
    if (record?.status === 'initialized') record.status = 'receiving';
  }

  async getPage(importId: string, objectType: ObjectType, pageNumber: number): Promise<ImportItem[] | null> {
    const page = this.pages.get(`${importId}|${objectType}`)?.get(pageNumber);
    return page ? copy(page) : null;
  }

  async received(importId: string, objectType: ObjectType): Promise<{ pageCount: number; itemCount: number }> {
    const pages = [...(this.pages.get(`${importId}|${objectType}`)?.values() ?? [])];
    return { pageCount: pages.length, itemCount: pages.reduce((sum, page) => sum + page.length, 0) };
  }

  async end(importId: string, objectType: ObjectType, counts: { pageCount: number; itemCount: number }): Promise<boolean> {
    const state = this.imports.get(importId)?.types[objectType];
    if (!state || state.ended !== false) return false;
    Object.assign(state, { ended: true, pageCount: counts.pageCount, itemCount: counts.itemCount });
    return true;
  }

  async completeIfEnded(importId: string, now: number): Promise<boolean> {
    const record = this.imports.get(importId);
    if (!record || !Object.values(record.types).every((state) => state!.ended)) return false;
    if (!OPEN.includes(record.status)) return false;
    Object.assign(record, { status: 'complete', completedAt: now });
    return true;
  }

  async pagesOf(importId: string, objectType: ObjectType, afterPage: number, limit: number): Promise<{ pageNumber: number; messages: ImportItem[] }[]> {
    const pages = [...(this.pages.get(`${importId}|${objectType}`) ?? new Map<number, ImportItem[]>())];
    return pages
      .filter(([pageNumber]) => pageNumber > afterPage)
      .sort(([a], [b]) => a - b)
      .slice(0, limit)
      .map(([pageNumber, messages]) => ({ pageNumber, messages: copy(messages) }));
  }

  async unreleased(before: number, limit: number): Promise<ImportRecord[]> {
    return [...this.imports.values()]
      .filter((record) => record.status === 'complete' && record.releasedAt === null && record.completedAt !== null && record.completedAt <= before)
      .slice(0, limit)
      .map(copy);
  }

  async markReleased(importId: string, through: string, done: boolean, now: number): Promise<void> {
    const record = this.imports.get(importId);
    if (!record) return;
    record.releasedThrough = through;
    if (done) record.releasedAt = now;
  }

  async recordAttempt(requestId: string, attempt: WebhookAttempt): Promise<void> {
    this.attempts.set(requestId, [...(this.attempts.get(requestId) ?? []), copy(attempt)]);
  }

  async attemptsOf(requestId: string): Promise<WebhookAttempt[]> {
    return copy([...(this.attempts.get(requestId) ?? [])].sort((a, b) => a.attempt - b.attempt));
  }
}
