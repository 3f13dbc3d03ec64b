import type { DataType, ObjectType, V2Settings, V2SettingsInput } from '@ecomm-sync/contracts';
import { ApiError } from '../api';
import { OBJECT_TYPES } from './scope';

/** The mappings page's state: the settings as an editable draft, and what it sends back. */
export type Row = { externalPropertyName: string; crmPropertyName: string; dataType: DataType };
export type Draft = { enabled: boolean; webhookUri: string | null; mappings: Record<ObjectType, Row[]> };
export type Reapply = { settingsRev: number; status: string; objectsProcessed: number; objectTypes: string[] };

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
