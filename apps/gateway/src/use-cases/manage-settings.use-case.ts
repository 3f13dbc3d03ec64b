import { OBJECT_TYPES, type ObjectType, type SettingsChangedMessage, TOPICS } from '@ecomm-sync/contracts';
import type { ReapplyJob, Repositories, StoredSettings } from '@ecomm-sync/data-access';
import {
  decodeSettingsOwner,
  describeSettingsOwner,
  objectTypesToReapply,
  SETTINGS_BEFORE_ANY_PUT,
  settingsProblem,
  type ApiVersion,
  type SettingsRecord,
} from '@ecomm-sync/domain';
import { AppError, type Logger } from '@ecomm-sync/runtime';
import type { Broker } from '@ecomm-sync/messaging';

const describeOwner = (owner: string) => describeSettingsOwner(decodeSettingsOwner(owner));

/** Tries of a settings put whose read was overtaken by another write before its own (compare and set). */
const PUT_ATTEMPTS = 5;

/**
 * Settings of an application or a portal, through either API generation. A change that affects
 * mappings publishes one event; the mapper then re-maps the stored objects (nothing is re-sent).
 */
export class ManageSettingsUseCase {
  constructor(
    private readonly repositories: Pick<Repositories, 'settings' | 'reapplyJobs'>,
    private readonly broker: Pick<Broker, 'publish'>,
    private readonly logger: Logger,
  ) {}

  /** The stored settings, or null before any PUT and after a DELETE. */
  find(owner: string): Promise<StoredSettings | null> {
    return this.repositories.settings.getByOwner(owner);
  }

  /**
   * What GET answers: the stored settings, or, without any, disabled and empty ones with the import
   * address if one is kept (set through v1 import-settings, or left by a v1 DELETE): it is what an
   * import start uses, so v2's `webhookUri` shows it.
   */
  async view(owner: string): Promise<SettingsRecord> {
    // One read: settings and the address kept beside them as of the same moment.
    const { settings: stored, webhookUri } = await this.repositories.settings.findWithAddress(owner);
    if (stored) return stored;
    return webhookUri ? { ...SETTINGS_BEFORE_ANY_PUT, webhookUri } : SETTINGS_BEFORE_ANY_PUT;
  }

  /**
   * Replaces the settings with what `build` makes of the current ones (a v1 PUT keeps the import
   * URI, a v2 PUT keeps importOnInstall) and asks for a re-apply of what the change affects.
   */
  async put(owner: string, build: (current: StoredSettings | null) => SettingsRecord, version: ApiVersion): Promise<StoredSettings> {
    const { reapplyPending, ...stored } = await this.write(owner, build, version);
    const objectTypes = stored.enabled ? reapplyPending : []; // paused: enabling again re-applies everything
    await this.requestReapply(owner, stored.rev, objectTypes);
    if (reapplyPending.length > 0) await this.repositories.settings.clearReapplyPending(owner, stored.rev);
    this.logger.info('settings saved', { owner, rev: stored.rev, reapply: objectTypes });
    return stored;
  }

  /**
   * Writes what `build` makes of the settings read, over exactly those (compare and set on their
   * revision): what the change affects is told from the settings it replaces, so that a put racing
   * another (one pausing them meanwhile) cannot hide a change that must re-apply. What it affects is
   * pending in the same write as the settings, so that a re-apply the broker did not take (a 503) is
   * queued by the next put, even one that changes nothing.
   */
  private async write(owner: string, build: (current: StoredSettings | null) => SettingsRecord, version: ApiVersion) {
    for (let attempt = 1; attempt <= PUT_ATTEMPTS; attempt++) {
      const before = await this.repositories.settings.getByOwner(owner);
      const record = build(before);
      const problem = settingsProblem(record, version);
      if (problem) throw AppError.badRequest(problem);
      const options = { reapplyPending: objectTypesToReapply(before, record), keepWebhookUri: version === 'v1' };
      const written = before
        ? await this.repositories.settings.putByOwner(owner, record, { ...options, expectedRev: before.rev })
        : await this.repositories.settings.putByOwner(owner, record, options);
      if (written) return written;
    }
    throw AppError.conflict('The settings kept changing while this request was saving them; send it again');
  }

  /**
   * Re-maps every stored object with the settings as they are, for fixes made outside the settings
   * (a CRM property created after messages failed with NO_PROPERTIES_DEFINED). The settings'
   * revision grows, so the re-map is newer than what was applied.
   */
  async forceReapply(owner: string): Promise<{ settingsRev: number; objectTypes: ObjectType[] }> {
    // The revision alone grows, in one write on enabled settings: nothing read here is written back.
    const stored = await this.repositories.settings.raiseRevision(owner, OBJECT_TYPES);
    if (!stored) {
      // None stored reads as disabled (GET answers the defaults): refused alike, saying which.
      if (!(await this.find(owner)))
        throw AppError.conflict(`No settings are stored for ${describeOwner(owner)} yet (they read as disabled); PUT them enabled, which applies everything`);
      throw AppError.conflict('The settings are disabled; enable them (that re-applies everything) instead');
    }
    await this.requestReapply(owner, stored.rev, [...OBJECT_TYPES]);
    await this.repositories.settings.clearReapplyPending(owner, stored.rev);
    return { settingsRev: stored.rev, objectTypes: [...OBJECT_TYPES] };
  }

  private async requestReapply(owner: string, settingsRev: number, objectTypes: ObjectType[]): Promise<void> {
    if (objectTypes.length === 0) return;
    const event: SettingsChangedMessage = { kind: 'settings-changed', owner, settingsRev, objectTypes };
    try {
      await this.broker.publish(TOPICS.settingsChanged, event);
    } catch (error) {
      this.logger.error('publishing a settings change failed', { owner, error: String(error) });
      throw AppError.unavailable('The settings were saved, but re-applying stored messages could not be queued; send the same request again');
    }
  }

  /**
   * Deletes the settings for good. A v1 DELETE keeps the import address: v1's import settings are a
   * resource of their own (`/v1/import-settings`); v2's `webhookUri` is part of its settings and goes.
   */
  async remove(owner: string, version: ApiVersion): Promise<void> {
    await this.repositories.settings.remove(owner, { keepWebhookUri: version === 'v1' });
    this.logger.info('settings deleted', { owner, version });
  }

  /** v1 import settings: the import trigger URI, kept in the same document as v2's webhookUri; null before one is set. */
  importTriggerUri(owner: string): Promise<string | null> {
    return this.repositories.settings.webhookUriOf(owner);
  }

  /** Sets the import trigger URI alone: the mappings, `enabled` and the settings' revision stay; without settings it makes none. */
  putImportTriggerUri(owner: string, importTriggerUri: string): Promise<string | null> {
    return this.repositories.settings.putWebhookUri(owner, importTriggerUri);
  }

  async reapplyStatus(owner: string): Promise<ReapplyJob> {
    const job = await this.repositories.reapplyJobs.latest(owner);
    if (!job) throw AppError.notFound(`No re-apply has run for ${describeOwner(owner)}; one starts when a settings change affects mappings`);
    return job;
  }
}
