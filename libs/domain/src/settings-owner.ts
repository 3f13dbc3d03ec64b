import type { Tenant } from '@ecomm-sync/contracts';

/**
 * Whose settings: an application's (application mode: every portal it is installed in) or one
 * portal's (direct mode). Stored and sent as text (`app:<appId>`, `portal:<portalId>`): encode
 * and decode here, nowhere else.
 */
export type SettingsOwner = { kind: 'app'; appId: string } | { kind: 'portal'; portalId: number };

/** Settings belong to the application in application mode, to the portal in direct mode. */
export const settingsOwnerOf = (tenant: Tenant): SettingsOwner =>
  tenant.appId ? { kind: 'app', appId: tenant.appId } : { kind: 'portal', portalId: tenant.portalId };

export const encodeSettingsOwner = (owner: SettingsOwner): string => (owner.kind === 'app' ? `app:${owner.appId}` : `portal:${owner.portalId}`);

/** The owner an encoded one names; throws on text that names none. */
export function decodeSettingsOwner(text: string): SettingsOwner {
  const colon = text.indexOf(':');
  const [kind, id] = colon < 0 ? [text, ''] : [text.slice(0, colon), text.slice(colon + 1)];
  if (kind === 'app' && id !== '') return { kind: 'app', appId: id };
  if (kind === 'portal' && /^\d+$/.test(id)) return { kind: 'portal', portalId: Number(id) };
  throw new Error(`not a settings owner: ${text}`);
}

/** The owner as a person reads it in a message. */
export const describeSettingsOwner = (owner: SettingsOwner): string => (owner.kind === 'app' ? `application ${owner.appId}` : `portal ${owner.portalId}`);

/** The data an owner's settings concern: every portal of an application, or one portal in direct mode. */
export const settingsOwnerData = (owner: SettingsOwner): { appId: string } | { portalId: number; appId: null } =>
  owner.kind === 'app' ? { appId: owner.appId } : { portalId: owner.portalId, appId: null };
