import type { ErrorStatus, ErrorType, ObjectType } from './enums';
import type { CrmAnswer, Problem } from './amqp-messages';
import type { V2SettingsInput } from './settings';
import type { PropertyValue } from './sync-v1';

/** GET /console/api/v1/objects: one sender object, as stored and as synced (issue 14, page 3). */
export interface ConsoleObjectInspection {
  portalId: number;
  appId: string | null;
  storeId: string;
  objectType: ObjectType;
  externalObjectId: string;
  /** applied: linked to a live CRM object with no open error; failed: an open error; waiting; archived; not-processed; unknown: nothing received. */
  status: 'applied' | 'failed' | 'waiting' | 'archived' | 'not-processed' | 'unknown';
  crm: { id: number; archived: boolean; lastProcessedAt: number | null; link: string | null } | null;
  messages: {
    receivedAt: number;
    changedAt: number | null;
    action: 'UPSERT' | 'DELETE';
    source: string;
    properties: Record<string, PropertyValue>;
    associations: Partial<Record<ObjectType, string[]>> | null;
  }[];
  /** More messages were received than listed (the newest are listed). */
  moreMessages: boolean;
  merged: {
    properties: Record<string, { value: PropertyValue; changedAt: number }>;
    associations: Partial<Record<ObjectType, { value: string[]; changedAt: number }>>;
    live: boolean;
  } | null;
  /** The merged state mapped with the settings in force now. */
  mapped: { properties: Record<string, string | null>; associations: Partial<Record<ObjectType, string[]>>; problems: Problem[] } | null;
  errors: { type: ErrorType; details: string; status: ErrorStatus; changedAt: number; erroredAt: number; whatToDo: string; crm?: CrmAnswer }[];
}

/** POST /console/api/v1/mappings/validate: the enabling rules on a draft, as the settings endpoint applies them. */
export interface ConsoleSettingsCheck {
  ok: boolean;
  /** What to fix, in the settings endpoint's words; null when the draft can be saved. */
  problem: string | null;
}

/**
 * POST /console/api/v1/mappings/dry-run: a stored object or a typed message mapped with draft
 * settings; nothing is saved. The tenant comes from the query (portalId, appId), as on every console read.
 */
export interface ConsoleDryRunRequest {
  settings: V2SettingsInput;
  storeId: string;
  objectType: ObjectType;
  /** Map the stored merged state of this object... */
  externalObjectId?: string;
  /** ...or this typed message (merged onto nothing). */
  message?: { externalObjectId: string; properties: Record<string, PropertyValue> };
}

export interface ConsoleDryRunResult {
  externalObjectId: string;
  /** Whether the object would be created (no live CRM object linked) or updated. */
  operation: 'CREATE' | 'UPDATE' | 'DELETE';
  /** The properties that would be written to the CRM. */
  properties: Record<string, string | null>;
  associations: Partial<Record<ObjectType, string[]>>;
  /**
   * What each association would do, from the stored links: link to a CRM object, make the object
   * wait for it (a required target not synced yet, on a create), go without it (on an update), or
   * link later (an optional target, when it arrives).
   */
  associationTargets: { objectType: ObjectType; externalObjectId: string; crmId: number | null; outcome: 'links' | 'waits' | 'not-linked' | 'links-later' }[];
  /** The errors the object would get; blocking ones mean it would not be written. */
  problems: Problem[];
  /** A draft the settings endpoint would refuse, in its words (dry runs still map with it). */
  settingsProblem: string | null;
}

/** GET /console/api/v1/mappings/crm-properties?objectType=: what the portal's CRM defines. */
export interface ConsoleCrmProperties {
  objectType: ObjectType;
  results: { name: string; label: string; type: string }[];
}
