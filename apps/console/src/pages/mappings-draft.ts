import type { DataType, ObjectType, V2Settings, V2SettingsInput } from '@ecomm-sync/contracts';
import { ApiError } from '../api';
import { OBJECT_TYPES } from './scope';

/** The mappings page's state: the settings as an editable draft, and what it sends back. */
export type Row = { externalPropertyName: string; crmPropertyName: string; dataType: DataType };
export type Draft = { enabled: boolean; webhookUri: string | null; mappings: Record<ObjectType, Row[]> };
export type Reapply = { settingsRev: number; status: string; objectsProcessed: number; objectTypes: string[] };
/**
 * The save's notice, and the re-apply it waits for: `before` is the newest job's settings revision
 * before the save, `since` when the save was answered.
 */
export type Saving = { note: string; reapply?: Reapply; before?: number; since?: number };

/** How long the page waits for a re-apply to start before it says none has and stops asking. */
export const REAPPLY_START_WAIT_MS = 60_000;

export const SETTINGS = '/extensions/ecomm/v2/settings';
export const toDraft = (settings: V2Settings): Draft => ({
  enabled: settings.enabled,
  webhookUri: settings.webhookUri,
  mappings: Object.fromEntries(
    OBJECT_TYPES.map((type) => [type, (settings.mappings[type]?.properties ?? []).map((m) => ({ ...m, dataType: m.dataType ?? 'STRING' }))]),
  ) as Draft['mappings'],
});
export const toInput = (draft: Draft): V2SettingsInput => ({
  enabled: draft.enabled,
  webhookUri: draft.webhookUri,
  mappings: Object.fromEntries(
    OBJECT_TYPES.map((type) => [type, { properties: draft.mappings[type].filter((row) => row.externalPropertyName || row.crmPropertyName) }]),
  ),
});
export const message = (error: unknown) => (error instanceof ApiError ? error.message : String(error));

/** Settings as the gateway answers them before any PUT: disabled, no webhook, nothing mapped. */
export const NO_SETTINGS: V2Settings = {
  enabled: false,
  webhookUri: null,
  mappings: { CONTACT: { properties: [] }, DEAL: { properties: [] }, PRODUCT: { properties: [] }, LINE_ITEM: { properties: [] } },
};

/** Whether settings are as before any PUT (nothing enabled, set or mapped): the page says saving stores them. */
export const isUnset = (settings: V2Settings): boolean =>
  !settings.enabled && !settings.webhookUri && OBJECT_TYPES.every((type) => (settings.mappings[type]?.properties ?? []).length === 0);

/**
 * Whether saving `after` over `before` starts a re-apply, as the server decides it (objectTypesToReapply
 * in libs/domain): none while sync is disabled; everything when it was disabled or new; else the
 * object types whose mappings changed. The page waits for a re-apply only when one is coming.
 */
export function reapplyAfterSave(before: V2Settings | null, after: V2Settings): 'disabled' | 'nothing-changed' | 'expected' {
  if (!after.enabled) return 'disabled';
  if (!before || !before.enabled) return 'expected';
  const key = (settings: V2Settings, type: (typeof OBJECT_TYPES)[number]) =>
    JSON.stringify((settings.mappings[type]?.properties ?? []).map((m) => [m.externalPropertyName, m.crmPropertyName, m.dataType ?? 'STRING']).sort());
  return OBJECT_TYPES.some((type) => key(before, type) !== key(after, type)) ? 'expected' : 'nothing-changed';
}
