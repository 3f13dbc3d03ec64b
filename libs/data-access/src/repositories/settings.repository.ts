import type { Connection } from 'mongoose';
import type { ObjectType, PropertyMapping, SyncSettings, Tenant } from '@ecomm-sync/contracts';
import { OBJECT_TYPES } from '@ecomm-sync/contracts';
import { settingsModel } from '../models/settings.model';

export interface StoredSettings extends SyncSettings {
  importOnInstall: boolean;
  webhookUri: string | null;
  rev: number;
}

/** Settings belong to the application in application mode, to the portal in direct mode. */
export const settingsOwner = (tenant: Tenant): string => (tenant.appId ? `app:${tenant.appId}` : `portal:${tenant.portalId}`);

interface SettingsDoc {
  enabled: boolean;
  importOnInstall: boolean;
  webhookUri: string | null;
  mappings: Record<ObjectType, PropertyMapping[]>;
  rev: number;
}

export class SettingsRepository {
  private readonly settings;

  constructor(connection: Connection) {
    this.settings = settingsModel(connection);
  }

  async get(tenant: Tenant): Promise<StoredSettings | null> {
    const doc = await this.settings.findOne({ owner: settingsOwner(tenant) }).lean<SettingsDoc>();
    if (!doc) return null;
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

  /** Full replace of the settings; the revision grows so that the mapper can tell they changed. */
  async put(tenant: Tenant, settings: Omit<StoredSettings, 'rev'>): Promise<StoredSettings> {
    const doc = await this.settings
      .findOneAndUpdate(
        { owner: settingsOwner(tenant) },
        {
          $set: {
            enabled: settings.enabled,
            importOnInstall: settings.importOnInstall,
            webhookUri: settings.webhookUri,
            mappings: Object.fromEntries(OBJECT_TYPES.map((type) => [type, settings.mappings[type] ?? []])),
          },
          $inc: { rev: 1 },
        },
        { upsert: true, new: true },
      )
      .lean<SettingsDoc>();
    return { ...settings, rev: doc!.rev };
  }
}
