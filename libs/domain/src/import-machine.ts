import type { ObjectType } from '@ecomm-sync/contracts';
import { receivedCounts } from './import-progress';
import { releaseTransition } from './import-release';

/**
 * The bulk import's rule (SPEC.md "Import (v1, application mode)", decision 49), as one function of
 * the stored state and an event. Use cases load an import, call `importTransition`, and store `next`
 * by compare-and-set; repositories hold no part of this rule.
 */

export type ImportStatus = 'initialized' | 'receiving' | 'complete' | 'failed';

export interface ImportTypeState {
  settingsId: number;
  /** From the webhook answer: an estimate, or null when the receiver could not tell. */
  expectedCount: number | null;
  /** Items of each page received, by page number: a page sent again replaces its count. */
  pageItems: Record<string, number>;
  ended: boolean;
  /** The end's counts, once ended. */
  pageCount: number | null;
  itemCount: number | null;
}

export interface ImportState {
  importStartedAt: number;
  status: ImportStatus;
  types: Partial<Record<ObjectType, ImportTypeState>>;
  failureReason: string | null;
  /** When it failed (null: it did not, or failed before this was recorded); the "import failed" alert looks back from it. */
  failedAt: number | null;
  completedAt: number | null;
  /** Release to the mapper: the last page released (`TYPE:page`, the resume point), and when it finished. */
  releasedThrough: string | null;
  releasedAt: number | null;
  /**
   * When a releaser last recorded progress: the periodic check leaves a release alone while it
   * progresses (a release paced at its portal's intake, decision 57, may take minutes).
   */
  releaseProgressAt: number | null;
  /**
   * Whose claim the release is (a token each claim draws; kept once released, null when never
   * claimed, dropped, or claimed by a replica older than claim tokens): a releaser taken over after
   * it stalled past the look-back changes nothing more, and learns from the stored import that it lost it.
   */
  releaseOwner: string | null;
  /**
   * When the webhook was queued for the receiver (null before): a start delivered again after it
   * (the coordinator stopped before its acknowledgement) asks for no second webhook.
   */
  webhookRequestedAt: number | null;
  /**
   * The webhook failed for good or answered amiss after pages arrived (the import went on): the
   * first such problem and when it was recorded; the import view and the webhook alert show it.
   */
  webhookProblem: { reason: string; at: number } | null;
  /**
   * The release failed (a page could not be published, the database went away) and was dropped for
   * another try: the last failure and when, how many tries in a row failed without releasing a page,
   * and when the first of them did. Cleared once a page is released. The import view and the
   * "import failed" alert show it.
   */
  releaseProblem: { reason: string; at: number; tries: number; since: number } | null;
}

export type ImportEvent =
  /** The import-coordinator took the start from the queue. */
  | { kind: 'start-announced' }
  /** The webhook was queued (after start-announced asked for it). */
  | { kind: 'webhook-requested'; at: number }
  /** `count` as the receiver answered it: any value, or absent (an estimate only: what is not a count reads as unknown). */
  | { kind: 'webhook-answered'; importCounts: readonly { settingsId: number; count?: unknown }[]; at: number }
  /** The webhook failed for good, or the start could not be queued. */
  | { kind: 'failed'; reason: string; at: number }
  | { kind: 'page-received'; objectType: ObjectType; pageNumber: number; itemCount: number }
  | { kind: 'end-received'; objectType: ObjectType; pageCount: number; itemCount: number; at: number }
  /** The releaser `owner` released through a page, or all of it (`done`). */
  | { kind: 'release-progressed'; through: string; done: boolean; at: number; owner: string }
  /** A releaser asks to take the release as `owner`: granted unless another progressed after `staleBefore`. */
  | { kind: 'release-claimed'; at: number; staleBefore: number; owner: string }
  /** The releaser still works (it waits for its portal's pace): its claim stays fresh. */
  | { kind: 'release-held'; at: number; owner: string }
  /** The releaser failed (a publish was not confirmed): the next releaser may claim it at once; the failure is recorded. */
  | { kind: 'release-dropped'; owner: string; reason: string; at: number };

export type ImportEffect =
  /** Have the initialization webhook sent. */
  | { kind: 'request-webhook' }
  /** Every type ended (or a releaser's claim was granted): release the import's messages to the mapper. */
  | { kind: 'release' }
  | { kind: 'report-failure'; reason: string }
  /** The webhook failed or answered amiss after pages arrived: the import goes on, the problem is only reported. */
  | { kind: 'report-webhook-problem'; reason: string };

/** Why an event is refused, as the API answers it. */
export interface ImportRefusal {
  status: 400 | 409;
  message: string;
}

/** `next` is the state itself (the same object) when the event changes nothing: there is nothing to write. */
export type ImportTransition<S extends ImportState> = { next: S; effects: ImportEffect[] } | { refused: ImportRefusal };

export function importTransition<S extends ImportState>(state: S, event: ImportEvent): ImportTransition<S> {
  switch (event.kind) {
    case 'start-announced':
      return { next: state, effects: state.status === 'initialized' && state.webhookRequestedAt === null ? [{ kind: 'request-webhook' }] : [] };
    case 'webhook-requested':
      return { next: state.webhookRequestedAt === null ? { ...state, webhookRequestedAt: event.at } : state, effects: [] };
    case 'webhook-answered':
      return answered(state, event.importCounts, event.at);
    case 'failed':
      return failed(state, event.reason, event.at);
    case 'page-received':
      return pageReceived(state, event);
    case 'end-received':
      return endReceived(state, event);
    case 'release-progressed':
    case 'release-claimed':
    case 'release-held':
    case 'release-dropped':
      return releaseTransition(state, event);
  }
}

const isOpen = (state: ImportState) => state.status === 'initialized' || state.status === 'receiving';

/**
 * Failed for good, unless it already completed or failed (the first reason stays), or pages arrived:
 * the receiver got the request (SPEC.md: after receiving it, it sends pages), and pages accepted are
 * never thrown away for a webhook that failed or answered late; the problem is reported, the import
 * goes on (its estimates stay unknown).
 */
function failed<S extends ImportState>(state: S, reason: string, at: number): ImportTransition<S> {
  if (state.status === 'receiving') return { next: withWebhookProblem(state, reason, at), effects: [{ kind: 'report-webhook-problem', reason }] };
  if (!isOpen(state)) return { next: state, effects: [] };
  return { next: { ...state, status: 'failed', failureReason: reason, failedAt: at }, effects: [{ kind: 'report-failure', reason }] };
}

/**
 * Expected counts per type by settingsId; an answer without an entry for a requested type fails the
 * import, unless pages arrived (then that type's estimate stays unknown and the problem is reported).
 */
function answered<S extends ImportState>(state: S, importCounts: readonly { settingsId: number; count?: unknown }[], at: number): ImportTransition<S> {
  const bySettings = new Map(importCounts.map((entry) => [entry.settingsId, entry.count]));
  const types = { ...state.types };
  const problems: string[] = [];
  for (const [objectType, type] of Object.entries(state.types) as [ObjectType, ImportTypeState][]) {
    if (!bySettings.has(type.settingsId)) {
      const reason = `the receiver's answer has no importCounts entry for settingsId ${type.settingsId} (${objectType})`;
      if (state.status !== 'receiving') return failed(state, reason, at);
      problems.push(reason);
    }
    types[objectType] = { ...type, expectedCount: estimate(bySettings.get(type.settingsId) ?? null) };
  }
  if (problems.length === 0) return { next: { ...state, types }, effects: [] };
  const reason = problems.join('; ');
  return { next: withWebhookProblem({ ...state, types }, reason, at), effects: [{ kind: 'report-webhook-problem', reason }] };
}

/** The first webhook problem of an import that goes on stays recorded. */
const withWebhookProblem = <S extends ImportState>(state: S, reason: string, at: number): S =>
  state.webhookProblem === null ? { ...state, webhookProblem: { reason, at } } : state;

/**
 * A receiver's count as the progress shows it: rounded; a count sent as decimal text (`"120"`) read
 * as its number; null (cannot be estimated) when negative, absent or anything else. SPEC.md: the
 * count is an estimate for progress, so no answer fails an import for its count alone.
 */
function estimate(count: unknown): number | null {
  const number = typeof count === 'string' && /^\s*\d+(?:\.\d+)?\s*$/.test(count) ? Number(count) : count;
  return typeof number === 'number' && number >= 0 && Number.isFinite(number) ? Math.round(number) : null;
}

/** The type's state, when it still takes pages and ends; the refusal otherwise. */
function openType(state: ImportState, objectType: ObjectType): ImportTypeState | ImportRefusal {
  const { importStartedAt } = state;
  if (state.status === 'failed') {
    return { status: 409, message: `Import ${importStartedAt} failed (${state.failureReason ?? 'no reason recorded'}); start a new one` };
  }
  if (state.status === 'complete') return { status: 409, message: `Import ${importStartedAt} is complete; start a new one to send more` };
  const type = state.types[objectType];
  if (!type) return { status: 400, message: `Import ${importStartedAt} does not import ${objectType}` };
  if (type.ended) {
    return { status: 409, message: `${objectType} of import ${importStartedAt} has already ended; pages and ends after the end are refused` };
  }
  return type;
}

const isRefusal = (value: ImportTypeState | ImportRefusal): value is ImportRefusal => 'message' in value;

/**
 * The most pages one type of an import holds: 10 million items at SPEC.md's 500 a page. Every page's
 * count lives in the import's record, rewritten with each page: without a bound, an application
 * sending empty pages without end made each one costlier than the last and, near 16 MB, the record
 * unwritable (found by a review).
 */
export const MAX_IMPORT_PAGES_PER_TYPE = 20_000;

function pageReceived<S extends ImportState>(state: S, event: Extract<ImportEvent, { kind: 'page-received' }>): ImportTransition<S> {
  const type = openType(state, event.objectType);
  if (isRefusal(type)) return { refused: type };
  const page = String(event.pageNumber);
  if (!(page in type.pageItems) && Object.keys(type.pageItems).length >= MAX_IMPORT_PAGES_PER_TYPE) {
    const message = `${event.objectType} of import ${state.importStartedAt} already holds ${MAX_IMPORT_PAGES_PER_TYPE} pages, the most one type takes; send up to 500 items a page, or a page again by its number to replace it`;
    return { refused: { status: 400, message } };
  }
  if (state.status === 'receiving' && type.pageItems[page] === event.itemCount) return { next: state, effects: [] };
  const pageItems = { ...type.pageItems, [page]: event.itemCount };
  return { next: { ...state, status: 'receiving', types: { ...state.types, [event.objectType]: { ...type, pageItems } } }, effects: [] };
}

/** The end's counts must match what was received (the type stays open when not); the last end completes the import. */
function endReceived<S extends ImportState>(state: S, event: Extract<ImportEvent, { kind: 'end-received' }>): ImportTransition<S> {
  // The same end sent again (its answer was lost): done already, so nothing to do, not a refusal.
  const ended = state.types[event.objectType];
  if (state.status !== 'failed' && ended?.ended && ended.pageCount === event.pageCount && ended.itemCount === event.itemCount)
    return { next: state, effects: [] };
  const type = openType(state, event.objectType);
  if (isRefusal(type)) return { refused: type };
  if (event.pageCount > MAX_IMPORT_PAGES_PER_TYPE) {
    const message = `The end of ${event.objectType} names ${event.pageCount} pages; one type of an import takes at most ${MAX_IMPORT_PAGES_PER_TYPE}: send up to 500 items a page, in a new import`;
    return { refused: { status: 400, message } };
  }
  const received = receivedCounts(type);
  if (received.pageCount !== event.pageCount || received.itemCount !== event.itemCount) {
    return {
      refused: {
        status: 400,
        message: `Counts of ${event.objectType} do not match: the end says ${event.pageCount} pages and ${event.itemCount} items, the service received ${received.pageCount} pages and ${received.itemCount} items; send the missing pages, then the end again`,
      },
    };
  }
  const types = { ...state.types, [event.objectType]: { ...type, ended: true, ...received } };
  const complete = Object.values(types).every((candidate) => candidate!.ended);
  if (!complete) return { next: { ...state, types }, effects: [] };
  return { next: { ...state, types, status: 'complete', completedAt: event.at }, effects: [{ kind: 'release' }] };
}
