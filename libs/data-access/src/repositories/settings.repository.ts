import type { Connection } from 'mongoose';
import { OBJECT_TYPES, type ObjectType, type PropertyMapping, type SyncSettings, type Tenant } from '@ecomm-sync/contracts';
import { decodeSettingsOwner, encodeSettingsOwner, settingsOwnerData, settingsOwnerOf } from '@ecomm-sync/domain';
import { onlyDuplicateKeyErrors } from '../duplicate-key';
import { settingsModel } from '../models/settings.model';

export interface StoredSettings extends SyncSettings {
  importOnInstall: boolean;
  /** v2 `webhookUri`, v1 `importTriggerUri`: the address the import webhook goes to. */
  webhookUri: string | null;
  rev: number;
}

/** The encoded owner of a tenant's settings (`app:<appId>` or `portal:<portalId>`): the key they are stored by. */
export const settingsOwner = (tenant: Tenant): string => encodeSettingsOwner(settingsOwnerOf(tenant));

/** The data an encoded settings owner's changes concern: every portal of an application, or one portal in direct mode. */
export const ownerDataFilter = (owner: string): { appId: string } | { portalId: number; appId: null } => settingsOwnerData(decodeSettingsOwner(owner));

const emptyMappings = () => Object.fromEntries(OBJECT_TYPES.map((type) => [type, []]));

interface SettingsDoc {
  enabled: boolean;
  importOnInstall: boolean;
  webhookUri: string | null;
  mappings: Record<ObjectType, PropertyMapping[]>;
  rev: number;
  reapplyPending?: ObjectType[];
  /** Deleted: read as no settings; the document stays so that the revision keeps growing. */
  removed?: boolean;
}

export class SettingsRepository {
  private readonly settings;

  constructor(connection: Connection) {
    this.settings = settingsModel(connection);
  }

  async get(tenant: Tenant): Promise<StoredSettings | null> {
    return this.getByOwner(settingsOwner(tenant));
  }

  async getByOwner(owner: string): Promise<StoredSettings | null> {
    return storedOf(await this.settings.findOne({ owner }).lean<SettingsDoc>());
  }

  /** The settings (null without any) and the import address, which outlives them (decision 61), in one read. */
  async findWithAddress(owner: string): Promise<{ settings: StoredSettings | null; webhookUri: string | null }> {
    const doc = await this.settings.findOne({ owner }).lean<SettingsDoc>();
    return { settings: storedOf(doc), webhookUri: doc?.webhookUri ?? null };
  }

  /**
   * Removes the settings for good (SPEC.md: cannot be undone). What is left is a tombstone with the
   * revision, raised: settings made again go on from it, so that their re-apply is newer than
   * anything the removed ones applied (starting over at 1 matched the old settings' finished
   * re-apply job of revision 1, and the applier took revision 1 for older than what it held).
   *
   * `keepWebhookUri` (a v1 DELETE: v1's import settings are a resource of their own) leaves the
   * import address on the tombstone, in the same write; otherwise (v2, whose `webhookUri` is part
   * of its settings) it goes too, from a tombstone as well. Answers whether there were settings.
   */
  async remove(owner: string, { keepWebhookUri = false }: { keepWebhookUri?: boolean } = {}): Promise<boolean> {
    // One write whether there are settings or a tombstone (a v2 DELETE still takes an address a
    // tombstone holds); the revision of a tombstone grows too, which only ever has to grow.
    const before = await this.settings
      .findOneAndUpdate(
        { owner },
        {
          $set: {
            removed: true,
            enabled: false,
            importOnInstall: false,
            ...(keepWebhookUri ? {} : { webhookUri: null }),
            mappings: emptyMappings(),
            reapplyPending: [],
          },
          $inc: { rev: 1 },
        },
        { new: false, projection: { removed: 1 } },
      )
      .lean<Pick<SettingsDoc, 'removed'>>();
    return before !== null && before.removed !== true;
  }

  /**
   * Raises the revision of enabled settings and makes every given type's re-apply pending, in one
   * write that changes nothing else (a forced re-apply): an address or a DELETE that lands
   * meanwhile stays. Null when there are no enabled settings.
   */
  async raiseRevision(owner: string, reapplyPending: readonly ObjectType[]): Promise<{ rev: number; reapplyPending: ObjectType[] } | null> {
    const doc = await this.settings
      .findOneAndUpdate(
        { owner, removed: { $ne: true }, enabled: true },
        { $inc: { rev: 1 }, $addToSet: { reapplyPending: { $each: [...reapplyPending] } } },
        { new: true, projection: { rev: 1, reapplyPending: 1 } },
      )
      .lean<Pick<SettingsDoc, 'rev' | 'reapplyPending'>>();
    return doc ? { rev: doc.rev, reapplyPending: doc.reapplyPending ?? [] } : null;
  }

  /** The import address, whether or not there are settings beside it (a v1 DELETE and a v1 import-settings PUT leave it alone). */
  async webhookUriOf(owner: string): Promise<string | null> {
    const doc = await this.settings.findOne({ owner }, { webhookUri: 1 }).lean<Pick<SettingsDoc, 'webhookUri'>>();
    return doc?.webhookUri ?? null;
  }

  /** Full replace of the settings; the revision grows so that the mapper can tell they changed. */
  async put(tenant: Tenant, settings: Omit<StoredSettings, 'rev'>): Promise<StoredSettings> {
    const { reapplyPending: _pending, ...stored } = await this.putByOwner(settingsOwner(tenant), settings);
    return stored;
  }

  /**
   * Full replace of the settings, in one write with the object types whose re-apply it makes
   * pending (`reapplyPending`, added to any still pending from an earlier put whose re-apply could
   * not be queued). The answer holds every pending type; clearReapplyPending ends them once queued.
   */
  async putByOwner(
    owner: string,
    settings: Omit<StoredSettings, 'rev'>,
    options?: { reapplyPending?: readonly ObjectType[]; keepWebhookUri?: boolean },
  ): Promise<StoredSettings & { reapplyPending: ObjectType[] }>;
  /** With `expectedRev`: only over the settings at that revision (compare and set); null when they changed meanwhile. */
  async putByOwner(
    owner: string,
    settings: Omit<StoredSettings, 'rev'>,
    options: { reapplyPending?: readonly ObjectType[]; keepWebhookUri?: boolean; expectedRev: number },
  ): Promise<(StoredSettings & { reapplyPending: ObjectType[] }) | null>;
  async putByOwner(
    owner: string,
    settings: Omit<StoredSettings, 'rev'>,
    {
      reapplyPending = [],
      keepWebhookUri = false,
      expectedRev,
    }: { reapplyPending?: readonly ObjectType[]; keepWebhookUri?: boolean; expectedRev?: number } = {},
  ): Promise<(StoredSettings & { reapplyPending: ObjectType[] }) | null> {
    const doc = await this.settings
      .findOneAndUpdate(
        // A revision that moved on makes the upsert insert a second document of the owner, which its unique index refuses.
        { owner, ...(expectedRev === undefined ? {} : { rev: expectedRev }) },
        {
          $set: {
            enabled: settings.enabled,
            importOnInstall: settings.importOnInstall,
            // v1 settings have no import address (its own resource): a v1 PUT leaves the stored one, even one set meanwhile.
            ...(keepWebhookUri ? {} : { webhookUri: settings.webhookUri }),
            mappings: Object.fromEntries(OBJECT_TYPES.map((type) => [type, settings.mappings[type] ?? []])),
            removed: false,
          },
          $inc: { rev: 1 },
          $addToSet: { reapplyPending: { $each: [...reapplyPending] } },
        },
        { upsert: true, new: true },
      )
      .lean<SettingsDoc>()
      .catch((error: unknown) => {
        if (expectedRev !== undefined && onlyDuplicateKeyErrors(error)) return null;
        throw error;
      });
    if (!doc) return null;
    return { ...settings, webhookUri: doc.webhookUri ?? null, rev: doc.rev, reapplyPending: doc.reapplyPending ?? [] };
  }

  /**
   * Sets the import address alone (v1 import-settings): the rest of the settings and their
   * revision stay, so that it neither undoes a settings PUT that lands meanwhile nor stops a
   * running re-apply. It makes no settings: without any (or after a DELETE) it writes a tombstone
   * that holds only the address, and sync messages still find no settings. Answers the address.
   */
  async putWebhookUri(owner: string, webhookUri: string | null): Promise<string | null> {
    const doc = await this.settings
      .findOneAndUpdate({ owner }, { $set: { webhookUri }, $setOnInsert: { removed: true, rev: 0 } }, { upsert: true, new: true, setDefaultsOnInsert: true })
      .lean<SettingsDoc>();
    return doc!.webhookUri ?? null;
  }

  /** Ends the pending re-apply once it is queued, unless a later put (a newer revision) made it pending again. */
  async clearReapplyPending(owner: string, rev: number): Promise<void> {
    await this.settings.updateOne({ owner, rev }, { $set: { reapplyPending: [] } });
  }
}

/** The settings a document holds: null for none or a tombstone. */
function storedOf(doc: SettingsDoc | null): StoredSettings | null {
  if (!doc || doc.removed) return null;
  const mappings: Partial<Record<ObjectType, PropertyMapping[]>> = {};
  for (const type of OBJECT_TYPES) {
    mappings[type] = (doc.mappings?.[type] ?? []).map(({ externalPropertyName, crmPropertyName, dataType }) => ({
      externalPropertyName,
      crmPropertyName,
      dataType,
    }));
  }
  return { enabled: doc.enabled, importOnInstall: doc.importOnInstall, webhookUri: doc.webhookUri ?? null, mappings, rev: doc.rev };
}
