import type { Types } from 'mongoose';
import type { Tenant } from '@ecomm-sync/contracts';
import type { ImportState, ImportTypeState } from '@ecomm-sync/domain';

/** An import as stored: the state the import machine (libs/domain) moves, and what identifies it. */
export interface ImportRecord extends ImportState {
  importId: string;
  tenant: Tenant & { appId: string };
  storeId: string;
  version: 'v1' | 'v2';
  webhookUri: string;
  createdAt: number;
  /** Bumped by every write; a write names the revision it read (compare-and-set). */
  rev: number;
}

export interface WebhookAttempt {
  attempt: number;
  at: number;
  url: string;
  status: number | null;
  error: string | null;
  durationMs: number;
}

export interface ImportDoc extends Omit<ImportRecord, 'importId' | 'tenant' | 'rev'> {
  _id: Types.ObjectId;
  portalId: number;
  appId: string;
  /** Absent on imports stored before decision 49. */
  rev?: number;
}

/** Imports stored before decision 49 kept no page counts. */
const withPageItems = (types: ImportRecord['types']): ImportRecord['types'] =>
  Object.fromEntries(Object.entries(types).map(([type, state]) => [type, { ...state, pageItems: state.pageItems ?? {} } satisfies ImportTypeState]));

/** An import document as the repository answers it. */
export const toImport = (doc: ImportDoc): ImportRecord => ({
  importId: String(doc._id),
  tenant: { portalId: doc.portalId, appId: doc.appId },
  storeId: doc.storeId,
  importStartedAt: doc.importStartedAt,
  version: doc.version,
  status: doc.status,
  webhookUri: doc.webhookUri,
  types: withPageItems(doc.types),
  failureReason: doc.failureReason ?? null,
  completedAt: doc.completedAt ?? null,
  releasedThrough: doc.releasedThrough ?? null,
  releasedAt: doc.releasedAt ?? null,
  releaseProgressAt: doc.releaseProgressAt ?? null,
  releaseOwner: doc.releaseOwner ?? null,
  webhookRequestedAt: doc.webhookRequestedAt ?? null,
  webhookProblem: doc.webhookProblem ?? null,
  releaseProblem: doc.releaseProblem ?? null,
  failedAt: doc.failedAt ?? null,
  createdAt: doc.createdAt,
  rev: doc.rev ?? 0,
});
