import { Types, type Connection } from 'mongoose';
import type { ObjectType, Tenant } from '@ecomm-sync/contracts';
import { importStateChange, type ImportState } from '@ecomm-sync/domain';
import { importModel, importPageModel, webhookAttemptModel } from '../models/import.model';
import { consoleScopeFilter, type ConsoleScope } from './console-scope';
import { onlyDuplicateKeyErrors } from '../duplicate-key';
import { itemOf, storedItem, type ImportItem, type StoredItem } from './import-items';
import { toImport, type ImportDoc, type ImportRecord, type WebhookAttempt } from './import-records';
import { readReleaseBacklog, waitingForRelease } from './import-release-queries';

export type { ImportStatus, ImportTypeState } from '@ecomm-sync/domain';
export type { ImportItem } from './import-items';
export type { ImportRecord, WebhookAttempt } from './import-records';

/**
 * Imports, their pages, and the attempts of outbound webhooks. Queries, and one write of an
 * import's state: `compareAndSet`. Which state follows which is the import machine's to say.
 */
export class ImportRepository {
  private readonly imports;
  private readonly pages;
  private readonly attempts;

  constructor(connection: Connection) {
    this.imports = importModel(connection);
    this.pages = importPageModel(connection);
    this.attempts = webhookAttemptModel(connection);
  }

  /** A new import; null when this tenant's store already has one started at that instant. */
  async create(
    record: Omit<
      ImportRecord,
      | 'importId'
      | 'rev'
      | 'failureReason'
      | 'failedAt'
      | 'completedAt'
      | 'releasedThrough'
      | 'releasedAt'
      | 'releaseProgressAt'
      | 'releaseOwner'
      | 'webhookRequestedAt'
      | 'webhookProblem'
      | 'releaseProblem'
    >,
  ): Promise<ImportRecord | null> {
    const { tenant, ...rest } = record;
    try {
      const { insertedId } = await this.imports.collection.insertOne({
        ...rest,
        portalId: tenant.portalId,
        appId: tenant.appId,
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
        rev: 0,
      });
      return this.findById(String(insertedId));
    } catch (error) {
      if (onlyDuplicateKeyErrors(error)) return null;
      throw error;
    }
  }

  async findById(importId: string): Promise<ImportRecord | null> {
    if (!Types.ObjectId.isValid(importId)) return null;
    const doc = await this.imports.collection.findOne({ _id: new Types.ObjectId(importId) });
    return doc ? this.withStoredPages(doc as unknown as ImportDoc) : null;
  }

  async find(tenant: Tenant, storeId: string, importStartedAt: number): Promise<ImportRecord | null> {
    const doc = await this.imports.collection.findOne({ portalId: tenant.portalId, appId: tenant.appId, storeId, importStartedAt });
    return doc ? this.withStoredPages(doc as unknown as ImportDoc) : null;
  }

  /** The imports within a console scope, newest first (by importStartedAt, then most recently stored), a page of them. */
  async list(scope: ConsoleScope, page: { offset: number; limit: number }): Promise<{ imports: ImportRecord[]; hasMore: boolean }> {
    const docs = await this.imports.collection
      .find(consoleScopeFilter(scope))
      .sort({ importStartedAt: -1, _id: -1 })
      .skip(page.offset)
      .limit(page.limit + 1)
      .toArray();
    const imports = await Promise.all(docs.slice(0, page.limit).map((doc) => this.withStoredPages(doc as unknown as ImportDoc)));
    return { imports, hasMore: docs.length > page.limit };
  }

  /**
   * An import stored before decision 49 has its pages in import_pages only: they are counted from
   * there, so that an import receiving or releasing across the upgrade loses no page (its next
   * write stores the counts with it).
   */
  private async withStoredPages(doc: ImportDoc): Promise<ImportRecord> {
    const record = toImport(doc);
    const legacy = Object.entries(doc.types).filter(([, state]) => state.pageItems === undefined);
    if (legacy.length === 0 || record.status === 'failed') return record;
    const importId = String(doc._id);
    const pages = await this.pages.collection
      .aggregate<{ _id: { objectType: string; pageNumber: number }; items: number }>([
        { $match: { importId, objectType: { $in: legacy.map(([type]) => type) } } },
        { $project: { _id: { objectType: '$objectType', pageNumber: '$pageNumber' }, items: { $size: '$messages' } } },
      ])
      .toArray();
    for (const { _id, items } of pages) {
      const state = record.types[_id.objectType as ObjectType];
      if (state) state.pageItems = { ...state.pageItems, [String(_id.pageNumber)]: items };
    }
    return record;
  }

  /**
   * Stores `next` as the import's state if its revision is still `expectedRev` (nobody wrote since
   * it was read); false when another write came first: read again and decide again.
   */
  async compareAndSet(importId: string, expectedRev: number, next: ImportState): Promise<boolean> {
    if (!Types.ObjectId.isValid(importId)) return false;
    const result = await this.imports.collection.updateOne(
      // An import stored before decision 49 has no rev yet: it reads as 0.
      { _id: new Types.ObjectId(importId), rev: expectedRev === 0 ? { $in: [0, null] } : expectedRev },
      {
        $set: {
          ...importStateChange(next),
          rev: expectedRev + 1,
        },
      },
    );
    return result.matchedCount === 1;
  }

  /**
   * Stores a page's messages, replacing a page sent before with the same number. Only content: it
   * counts once the import's state names it (`pageItems`), written after it by compare-and-set.
   */
  async putPage(importId: string, objectType: ObjectType, pageNumber: number, messages: readonly ImportItem[]): Promise<void> {
    await this.pages.collection.updateOne({ importId, objectType, pageNumber }, { $set: { messages: messages.map(storedItem) } }, { upsert: true });
  }

  async getPage(importId: string, objectType: ObjectType, pageNumber: number): Promise<ImportItem[] | null> {
    const doc = await this.pages.collection.findOne({ importId, objectType, pageNumber });
    return doc ? (doc.messages as StoredItem[]).map(itemOf) : null;
  }

  /** Pages of one object type after `afterPage`, in page order: what the release sends on. */
  async pagesOf(importId: string, objectType: ObjectType, afterPage: number, limit: number): Promise<{ pageNumber: number; messages: ImportItem[] }[]> {
    const docs = await this.pages.collection
      .find({ importId, objectType, pageNumber: { $gt: afterPage } })
      .sort({ pageNumber: 1 })
      .limit(limit)
      .toArray();
    return docs.map((doc) => ({ pageNumber: doc.pageNumber as number, messages: (doc.messages as StoredItem[]).map(itemOf) }));
  }

  /**
   * Complete imports whose release has not finished, completed before `before` (a lost completion
   * event), the oldest completion first, but those of `exceptPortals` and `exceptImports` (what the
   * caller would skip must not take the places of the others).
   */
  async unreleased(
    before: number,
    limit: number,
    { exceptPortals = [], exceptImports = [] }: { exceptPortals?: readonly number[]; exceptImports?: readonly string[] } = {},
  ): Promise<ImportRecord[]> {
    const exceptIds = exceptImports.filter((id) => Types.ObjectId.isValid(id)).map((id) => new Types.ObjectId(id));
    const docs = await this.imports.collection
      .find({
        ...waitingForRelease(before),
        ...(exceptPortals.length > 0 ? { portalId: { $nin: [...exceptPortals] } } : {}),
        ...(exceptIds.length > 0 ? { _id: { $nin: exceptIds } } : {}),
      })
      .sort({ completedAt: 1 })
      .limit(limit)
      .toArray();
    return docs.map((doc) => toImport(doc as unknown as ImportDoc));
  }

  /** The release backlog (import-release-queries.ts): portals whose imports wait for a release, and the oldest completion. */
  releaseBacklog(before: number): Promise<{ portals: number; oldestCompletedAt: number | null }> {
    return readReleaseBacklog(this.imports.collection, before);
  }

  async recordAttempt(requestId: string, attempt: WebhookAttempt): Promise<void> {
    await this.attempts.collection.insertOne({ requestId, ...attempt });
  }

  async attemptsOf(requestId: string): Promise<WebhookAttempt[]> {
    const docs = await this.attempts.collection
      .find({ requestId }, { projection: { _id: 0, requestId: 0 } })
      .sort({ attempt: 1 })
      .toArray();
    return docs as unknown as WebhookAttempt[];
  }
}
