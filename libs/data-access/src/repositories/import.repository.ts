import { Types, type Connection } from 'mongoose';
import type { ObjectType, Tenant } from '@ecomm-sync/contracts';
import { importModel, importPageModel, webhookAttemptModel } from '../models/import.model';
import { onlyDuplicateKeyErrors } from './duplicate-key';

export type ImportStatus = 'initialized' | 'receiving' | 'complete' | 'failed';

export interface ImportTypeState {
  settingsId: number;
  /** From the webhook answer: an estimate, or null when the receiver could not tell. */
  expectedCount: number | null;
  ended: boolean;
  pageCount: number | null;
  itemCount: number | null;
}

export interface ImportRecord {
  importId: string;
  tenant: Tenant & { appId: string };
  storeId: string;
  importStartedAt: number;
  version: 'v1' | 'v2';
  status: ImportStatus;
  webhookUri: string;
  types: Partial<Record<ObjectType, ImportTypeState>>;
  failureReason: string | null;
  completedAt: number | null;
  releasedThrough: string | null;
  releasedAt: number | null;
  createdAt: number;
}

/** One message of an import page, as stored (all import messages are upserts). */
export interface ImportItem {
  externalObjectId: string;
  properties: Record<string, unknown>;
  associations?: Partial<Record<ObjectType, string[]>>;
}

export interface WebhookAttempt {
  attempt: number;
  at: number;
  url: string;
  status: number | null;
  error: string | null;
  durationMs: number;
}

interface ImportDoc extends Omit<ImportRecord, 'importId' | 'tenant'> {
  _id: Types.ObjectId;
  portalId: number;
  appId: string;
}

const toImport = (doc: ImportDoc): ImportRecord => ({
  importId: String(doc._id),
  tenant: { portalId: doc.portalId, appId: doc.appId },
  storeId: doc.storeId,
  importStartedAt: doc.importStartedAt,
  version: doc.version,
  status: doc.status,
  webhookUri: doc.webhookUri,
  types: doc.types,
  failureReason: doc.failureReason ?? null,
  completedAt: doc.completedAt ?? null,
  releasedThrough: doc.releasedThrough ?? null,
  releasedAt: doc.releasedAt ?? null,
  createdAt: doc.createdAt,
});

/** Imports, their pages, and the attempts of outbound webhooks. */
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
  async create(record: Omit<ImportRecord, 'importId' | 'failureReason' | 'completedAt' | 'releasedThrough' | 'releasedAt'>): Promise<ImportRecord | null> {
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
    return doc ? toImport(doc as unknown as ImportDoc) : null;
  }

  async find(tenant: Tenant, storeId: string, importStartedAt: number): Promise<ImportRecord | null> {
    const doc = await this.imports.collection.findOne({ portalId: tenant.portalId, appId: tenant.appId, storeId, importStartedAt });
    return doc ? toImport(doc as unknown as ImportDoc) : null;
  }

  /** The webhook's answer: expected counts per object type. */
  async setExpectedCounts(importId: string, counts: Partial<Record<ObjectType, number | null>>): Promise<void> {
    const set = Object.fromEntries(Object.entries(counts).map(([type, count]) => [`types.${type}.expectedCount`, count]));
    await this.imports.collection.updateOne({ _id: new Types.ObjectId(importId) }, { $set: set });
  }

  /** Failed for good (the receiver never answered properly), unless it already completed. */
  async fail(importId: string, reason: string): Promise<void> {
    await this.imports.collection.updateOne(
      { _id: new Types.ObjectId(importId), status: { $in: ['initialized', 'receiving'] } },
      { $set: { status: 'failed', failureReason: reason } },
    );
  }

  /** Stores a page, replacing one sent before with the same number; the import is receiving from then on. */
  async putPage(importId: string, objectType: ObjectType, pageNumber: number, messages: readonly ImportItem[]): Promise<void> {
    await this.pages.collection.updateOne(
      { importId, objectType, pageNumber },
      { $set: { messages: [...messages], count: messages.length } },
      { upsert: true },
    );
    await this.imports.collection.updateOne({ _id: new Types.ObjectId(importId), status: 'initialized' }, { $set: { status: 'receiving' } });
  }

  async getPage(importId: string, objectType: ObjectType, pageNumber: number): Promise<ImportItem[] | null> {
    const doc = await this.pages.collection.findOne({ importId, objectType, pageNumber });
    return doc ? (doc.messages as ImportItem[]) : null;
  }

  /** Pages and items received for one object type. */
  async received(importId: string, objectType: ObjectType): Promise<{ pageCount: number; itemCount: number }> {
    const docs = await this.pages.collection.find({ importId, objectType }, { projection: { count: 1 } }).toArray();
    return { pageCount: docs.length, itemCount: docs.reduce((sum, doc) => sum + (doc.count as number), 0) };
  }

  /** Marks one object type ended; false when it had already ended. */
  async end(importId: string, objectType: ObjectType, counts: { pageCount: number; itemCount: number }): Promise<boolean> {
    const result = await this.imports.collection.updateOne(
      { _id: new Types.ObjectId(importId), [`types.${objectType}.ended`]: false },
      {
        $set: { [`types.${objectType}.ended`]: true, [`types.${objectType}.pageCount`]: counts.pageCount, [`types.${objectType}.itemCount`]: counts.itemCount },
      },
    );
    return result.matchedCount === 1;
  }

  /** Complete once every requested object type ended; true for the one caller that completed it. */
  async completeIfEnded(importId: string, now: number): Promise<boolean> {
    const current = await this.findById(importId);
    if (!current || !Object.values(current.types).every((state) => state!.ended)) return false;
    const result = await this.imports.collection.updateOne(
      { _id: new Types.ObjectId(importId), status: { $in: ['initialized', 'receiving'] } },
      { $set: { status: 'complete', completedAt: now } },
    );
    return result.matchedCount === 1;
  }

  /** Pages of one object type after `afterPage`, in page order: what the release sends on. */
  async pagesOf(importId: string, objectType: ObjectType, afterPage: number, limit: number): Promise<{ pageNumber: number; messages: ImportItem[] }[]> {
    const docs = await this.pages.collection
      .find({ importId, objectType, pageNumber: { $gt: afterPage } })
      .sort({ pageNumber: 1 })
      .limit(limit)
      .toArray();
    return docs.map((doc) => ({ pageNumber: doc.pageNumber as number, messages: doc.messages as ImportItem[] }));
  }

  /** Complete imports whose release has not finished, completed before `before` (a lost completion event). */
  async unreleased(before: number, limit: number): Promise<ImportRecord[]> {
    const docs = await this.imports.collection
      .find({ status: 'complete', releasedAt: null, completedAt: { $lte: before } })
      .limit(limit)
      .toArray();
    return docs.map((doc) => toImport(doc as unknown as ImportDoc));
  }

  async markReleased(importId: string, through: string, done: boolean, now: number): Promise<void> {
    await this.imports.collection.updateOne(
      { _id: new Types.ObjectId(importId) },
      { $set: { releasedThrough: through, ...(done ? { releasedAt: now } : {}) } },
    );
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
