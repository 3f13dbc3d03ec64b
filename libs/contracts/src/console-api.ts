import type { CrmAnswer } from './amqp-messages';
import type { ImportView } from './api-responses';
import type { ErrorStatus, ErrorType, ObjectType } from './enums';

/**
 * The web console's own API under /console/api/v1 (decision 0033): only what the existing
 * endpoints do not answer. The console and the gateway share these shapes.
 */
export type ConsoleRole = 'customer' | 'integrator' | 'operator';

export interface ConsoleSession {
  role: ConsoleRole;
  /** The customer's portal; absent for integrators (every portal that installed the application) and operators. */
  portalId?: number;
  /** The application (integrator, or a customer's installed application signed in with its OAuth token). */
  appId?: string;
}

export interface ConsoleObjectStateCounts {
  received: number;
  applied: number;
  withOpenErrors: number;
  waiting: number;
  /** The CRM object was deleted (a delete applied). */
  deleted: number;
  notProcessed: number;
}

export interface ConsoleStoreOverview {
  portalId: number;
  appId: string | null;
  storeId: string;
  label: string;
  objectTypes: Record<ObjectType, ConsoleObjectStateCounts>;
  openErrorsByType: Partial<Record<ErrorType, number>>;
  openErrors: number;
  lastProcessedAt: number | null;
}

export interface ConsoleOverview {
  stores: ConsoleStoreOverview[];
}

export interface ConsoleErrorRecord {
  portalId: number;
  appId: string | null;
  storeId: string;
  objectType: ObjectType;
  externalObjectId: string;
  changedAt: number;
  erroredAt: number;
  type: ErrorType;
  details: string;
  status: ErrorStatus;
  whatToDo: string;
  retryHelps: boolean;
  /** When the CRM refused the write: its status, category and correlation id. */
  crm?: CrmAnswer;
  /**
   * True when the error is open and waits for a batch set aside before it was merged: only the
   * batch's redrive clears it; a retry cannot (409 when all the object's open errors are such).
   */
  setAside?: boolean;
}

export interface ConsoleErrorPage {
  results: ConsoleErrorRecord[];
  offset: number;
  limit: number;
  hasMore: boolean;
}

/** POST /console/api/v1/errors/retry: one object, or every object with an open error of a type. */
export type ConsoleRetryRequest =
  | { object: { portalId: number; appId: string | null; storeId: string; objectType: ObjectType; externalObjectId: string } }
  | { errorType: ErrorType; storeId?: string; objectType?: ObjectType };

export interface ConsoleRetryResult {
  /** Objects sent to be mapped and applied again from their stored state. */
  objectsQueued: number;
  /** True when more objects had this error than one retry takes: retry again. */
  more: boolean;
  /** Objects with the error and nothing stored to re-apply: not sent. */
  notStored: number;
  /** Objects with the error in stores deleted since: not sent (a deleted store sends nothing more to the CRM). Absent from an older gateway. */
  inDeletedStores?: number;
  /**
   * Objects whose errors of the type all wait for a batch set aside (dead-lettered) before it was
   * merged: not sent, as a re-apply of what is stored cannot clear them; redriving the batch merges it.
   */
  setAside: number;
  /**
   * True when more such objects were left uncounted: `setAside` is then a lower bound. With `more`
   * true it is approximate too: an object past the first `objectsQueued` may also have an error a
   * retry again would clear.
   */
  setAsideMore: boolean;
}

/** GET /console/api/v1/installs: the installs the credential may see (an integrator's portals, a portal's applications). */
export interface ConsoleInstall {
  portalId: number;
  appId: string;
  /** The application's name, as its developer registered it. */
  appName: string;
  installedAt: number;
}

export interface ConsoleInstalls {
  results: ConsoleInstall[];
}

/** One import in GET /console/api/v1/imports: whose, which store, its state and counts; its progress page has the rest. */
export interface ConsoleImportSummary extends Pick<
  ImportView,
  'importStartedAt' | 'storeId' | 'status' | 'failureReason' | 'completedAt' | 'releasedAt' | 'releaseProblem' | 'objectTypes'
> {
  portalId: number;
  appId: string;
  /** Items received over every object type, and the application's estimate when it gave one for each. */
  itemsReceived: number;
  expectedCount: number | null;
}

/** GET /console/api/v1/imports: the imports within the credential's scope, newest first, a page of them. */
export interface ConsoleImportPage {
  results: ConsoleImportSummary[];
  offset: number;
  limit: number;
  hasMore: boolean;
}

export interface ConsoleQueueStats {
  queue: string;
  /** Ready messages in both lanes; `bulkDepth` of them in the bulk lane (decision 45). */
  depth: number;
  bulkDepth: number;
  consumers: number;
  retrying: number;
  deadLetters: number;
}
