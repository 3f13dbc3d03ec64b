import { IMPORT_SETTINGS_IDS, OBJECT_TYPES, type ObjectType } from '@ecomm-sync/contracts';
import type { ImportState, ImportTypeState } from './import-machine';

/**
 * What an import's state says (decision 49): what each type received, which pages count, and where
 * its release goes on. Queries of the state the import machine keeps; they change nothing.
 */

/** Objects others associate with come first, so that few line items have to wait. */
export const RELEASE_ORDER: readonly ObjectType[] = ['CONTACT', 'PRODUCT', 'DEAL', 'LINE_ITEM'];
/** `releasedThrough` once the release finished. */
export const RELEASE_DONE = `${RELEASE_ORDER[RELEASE_ORDER.length - 1]}:done`;

/** The state of each requested object type when an import starts. */
export function newImportTypes(objectTypes: readonly ObjectType[] = OBJECT_TYPES): Partial<Record<ObjectType, ImportTypeState>> {
  return Object.fromEntries(
    objectTypes.map((type): [ObjectType, ImportTypeState] => [
      type,
      { settingsId: IMPORT_SETTINGS_IDS[type], expectedCount: null, pageItems: {}, ended: false, pageCount: null, itemCount: null },
    ]),
  );
}

/** Pages and items received of one object type. */
export function receivedCounts(type: Pick<ImportTypeState, 'pageItems'>): { pageCount: number; itemCount: number } {
  const counts = Object.values(type.pageItems);
  return { pageCount: counts.length, itemCount: counts.reduce((sum, count) => sum + count, 0) };
}

/** Whether a stored page was counted: only counted pages are released (a page whose count was never stored is not). */
export function isReceivedPage(state: ImportState, objectType: ObjectType, pageNumber: number): boolean {
  return Object.hasOwn(state.types[objectType]?.pageItems ?? {}, String(pageNumber));
}

/** Where the release goes on: null unless the import is complete and not yet released. */
export function releaseStart(state: ImportState): { objectType: ObjectType; afterPage: number } | null {
  if (state.status !== 'complete' || state.releasedAt !== null) return null;
  if (!state.releasedThrough) return { objectType: RELEASE_ORDER[0], afterPage: -1 };
  const [objectType, page] = state.releasedThrough.split(':');
  return { objectType: objectType as ObjectType, afterPage: Number(page) };
}

/** What the import machine changes of an import (its start never changes): what a store writes back by compare-and-set. */
export type ImportStateChange = Omit<ImportState, 'importStartedAt'>;

/** The fields of ImportStateChange, once; the type below fails to compile when one is missing. */
const CHANGED_FIELDS = [
  'status',
  'types',
  'failureReason',
  'failedAt',
  'completedAt',
  'releasedThrough',
  'releasedAt',
  'releaseProgressAt',
  'releaseOwner',
  'webhookRequestedAt',
  'webhookProblem',
  'releaseProblem',
] as const satisfies readonly (keyof ImportStateChange)[];
const everyFieldListed: Exclude<keyof ImportStateChange, (typeof CHANGED_FIELDS)[number]> extends never ? true : never = true;
void everyFieldListed;

/** The machine's part of `state` (a record carries ids and more besides): what every store writes back. */
export const importStateChange = (state: ImportState): ImportStateChange =>
  Object.fromEntries(CHANGED_FIELDS.map((field) => [field, state[field]])) as ImportStateChange;
