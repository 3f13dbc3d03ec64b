import { OBJECT_TYPES, type ObjectType, type PropertyMapping, type Tenant } from '@ecomm-sync/contracts';
import { settingsOwner, type SettingsRepository, type StoredSettings } from '@ecomm-sync/data-access';
import { copy, type PublicOf } from '../public-of';

/** SettingsRepository in memory, by owner (`app:<appId>` or `portal:<portalId>`); the revision grows with every put. */
export class FakeSettingsRepository implements PublicOf<SettingsRepository> {
  private readonly byOwner = new Map<string, StoredSettings>();
  private readonly pending = new Map<string, Set<ObjectType>>();
  /** The revision a removal left, as the real one's tombstone keeps it. */
  private readonly removedAt = new Map<string, number>();
  /** The import address a removal kept, or one put without settings: the real one's tombstone holds it. */
  private readonly tombstoneAddress = new Map<string, string>();

  async get(tenant: Tenant): Promise<StoredSettings | null> {
    return this.getByOwner(settingsOwner(tenant));
  }

  async getByOwner(owner: string): Promise<StoredSettings | null> {
    const found = this.byOwner.get(owner);
    return found ? copy(found) : null;
  }

  async remove(owner: string, { keepWebhookUri = false }: { keepWebhookUri?: boolean } = {}): Promise<boolean> {
    const found = this.byOwner.get(owner);
    if (!found) {
      // A tombstone's revision grows too (the real one writes it either way), and a removal that does not keep the address takes it.
      const removedAt = this.removedAt.get(owner);
      if (removedAt !== undefined) this.removedAt.set(owner, removedAt + 1);
      if (!keepWebhookUri) this.tombstoneAddress.delete(owner);
      return false;
    }
    this.removedAt.set(owner, found.rev + 1);
    this.pending.delete(owner);
    if (keepWebhookUri && found.webhookUri) this.tombstoneAddress.set(owner, found.webhookUri);
    return this.byOwner.delete(owner);
  }

  async raiseRevision(owner: string, reapplyPending: readonly ObjectType[]): Promise<{ rev: number; reapplyPending: ObjectType[] } | null> {
    const found = this.byOwner.get(owner);
    if (!found?.enabled) return null;
    found.rev += 1;
    const pending = new Set([...(this.pending.get(owner) ?? []), ...reapplyPending]);
    this.pending.set(owner, pending);
    return { rev: found.rev, reapplyPending: [...pending] };
  }

  async findWithAddress(owner: string): Promise<{ settings: StoredSettings | null; webhookUri: string | null }> {
    return { settings: await this.getByOwner(owner), webhookUri: await this.webhookUriOf(owner) };
  }

  async webhookUriOf(owner: string): Promise<string | null> {
    return this.byOwner.get(owner)?.webhookUri ?? this.tombstoneAddress.get(owner) ?? null;
  }

  async put(tenant: Tenant, settings: Omit<StoredSettings, 'rev'>): Promise<StoredSettings> {
    const { reapplyPending: _pending, ...stored } = await this.putByOwner(settingsOwner(tenant), settings);
    return stored;
  }

  async putByOwner(
    owner: string,
    settings: Omit<StoredSettings, 'rev'>,
    options?: { reapplyPending?: readonly ObjectType[]; keepWebhookUri?: boolean },
  ): Promise<StoredSettings & { reapplyPending: ObjectType[] }>;
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
    const current = this.byOwner.get(owner)?.rev ?? this.removedAt.get(owner);
    if (expectedRev !== undefined && current !== expectedRev) return null;
    const rev = (current ?? 0) + 1;
    const webhookUri = keepWebhookUri ? await this.webhookUriOf(owner) : (settings.webhookUri ?? null);
    this.tombstoneAddress.delete(owner);
    // Stored as the real one stores them: every object type's mappings, only the mapping fields.
    const mappings = Object.fromEntries(
      OBJECT_TYPES.map((type): [ObjectType, PropertyMapping[]] => [
        type,
        (settings.mappings[type] ?? []).map(({ externalPropertyName, crmPropertyName, dataType }) => ({ externalPropertyName, crmPropertyName, dataType })),
      ]),
    );
    this.byOwner.set(owner, { enabled: settings.enabled, importOnInstall: settings.importOnInstall, webhookUri, mappings, rev });
    const pending = new Set([...(this.pending.get(owner) ?? []), ...reapplyPending]);
    this.pending.set(owner, pending);
    return { ...copy(settings), webhookUri, rev, reapplyPending: [...pending] };
  }

  async putWebhookUri(owner: string, webhookUri: string | null): Promise<string | null> {
    const found = this.byOwner.get(owner);
    // Without settings the real one writes a tombstone at revision 0.
    if (!found && !this.removedAt.has(owner)) this.removedAt.set(owner, 0);
    if (found) found.webhookUri = webhookUri;
    else if (webhookUri) this.tombstoneAddress.set(owner, webhookUri);
    else this.tombstoneAddress.delete(owner);
    return webhookUri;
  }

  async clearReapplyPending(owner: string, rev: number): Promise<void> {
    if (this.byOwner.get(owner)?.rev === rev) this.pending.delete(owner);
  }
}
