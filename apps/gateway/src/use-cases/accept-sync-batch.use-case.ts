import { randomUUID } from 'node:crypto';
import {
  DEFAULT_STORE_ID,
  type InboundMessage,
  type ObjectType,
  sentAssociations,
  type SyncBatchMessage,
  type Tenant,
  toEpochMillis,
  TOPICS,
  type V1SyncMessage,
  type V2Associations,
  type V2SyncMessage,
  type V2SyncSubmission,
} from '@ecomm-sync/contracts';
import type { StoreRepository } from '@ecomm-sync/data-access';
import { AppError, type Logger } from '@ecomm-sync/runtime';
import { MessageTooLargeError, type Broker } from '@ecomm-sync/messaging';
import { keyOf, misplacedAssociations, TtlCache } from '@ecomm-sync/domain';
import type { IntakePace } from './intake-pace';
import type { LaneShares } from './lane-shares';

/** The request a batch came in, as far as its wait for the portal's pace needs it. */
export interface HeldRequest {
  /** Its size: held in memory while the batch waits. */
  bytes?: number;
  /** Aborted when its sender went away: a waiting batch is then given up, never published. */
  signal?: AbortSignal;
}

/**
 * Turns an accepted request into one persistent AMQP message and resolves only once the broker
 * confirmed it: the 204 that follows means the batch survives a crash of any service. A batch
 * beyond its portal's intake pace waits first (or gets 429 when it would wait too long). The batch
 * goes on its portal's interactive lane while within the portal's share, else on the bulk lane.
 */
export class AcceptSyncBatchUseCase {
  private readonly broker: Broker;
  private readonly stores: Pick<StoreRepository, 'find'>;
  private readonly logger: Logger;
  private readonly knownStores: TtlCache<boolean>;
  private readonly lanes: Pick<LaneShares, 'laneFor' | 'giveBack'>;
  private readonly intake: Pick<IntakePace, 'admit' | 'giveBack'>;

  constructor(options: {
    broker: Broker;
    /** Finds a tenant's store (in the app: ManageInstallUseCase.findStore, which knows `default`). */
    stores: Pick<StoreRepository, 'find'>;
    logger: Logger;
    /** Stores found lately (default: none remembered). */
    knownStores?: TtlCache<boolean>;
    /** Each portal's share of the interactive lanes (default: one lane). */
    lanes?: Pick<LaneShares, 'laneFor' | 'giveBack'>;
    /** Each portal's pace of intake (default: none). */
    intake?: Pick<IntakePace, 'admit' | 'giveBack'>;
  }) {
    this.broker = options.broker;
    this.stores = options.stores;
    this.logger = options.logger;
    this.knownStores = options.knownStores ?? new TtlCache(0);
    this.lanes = options.lanes ?? { laneFor: () => 'interactive', giveBack: () => undefined };
    this.intake = options.intake ?? { admit: async () => 0, giveBack: async () => undefined };
  }

  async acceptV1(tenant: Tenant, objectType: ObjectType, messages: V1SyncMessage[], request: HeldRequest = {}): Promise<void> {
    const receivedAt = Date.now();
    await this.publish(request, {
      batchId: randomUUID(),
      tenant,
      storeId: DEFAULT_STORE_ID,
      objectType,
      source: 'v1',
      receivedAt,
      messages: messages.map((message, index): InboundMessage => ({
        externalObjectId: message.integratorObjectId,
        action: message.action,
        changedAt: changeTimeOf(message.changeOccurredTimestamp, `body/${index}/changeOccurredTimestamp`, receivedAt),
        properties: message.propertyNameToValues ?? {},
      })),
    });
  }

  async acceptV2(tenant: Tenant, submission: V2SyncSubmission, request: HeldRequest = {}): Promise<void> {
    const misplaced = misplacedAssociations(submission.objectType, submission.messages);
    if (misplaced) throw AppError.badRequest(misplaced);
    const checkStore = async () => {
      const known = await this.knownStores.get(keyOf(tenant.portalId, tenant.appId, submission.storeId), async () =>
        Boolean(await this.stores.find(tenant, submission.storeId)),
      );
      if (!known) throw AppError.badRequest(`Unknown store "${submission.storeId}"; define it first with PUT /extensions/ecomm/v2/stores`);
    };
    await checkStore();
    if (submission.messages.length === 0) return; // "up to 200" (SPEC.md): accepted, and nothing to enqueue
    const receivedAt = Date.now();
    // Checked again once admitted: a batch may wait for its pace, and the store be deleted meanwhile
    // (every replica forgets a deleted store at once, so this reads the deletion).
    await this.publish(
      request,
      {
        batchId: randomUUID(),
        tenant,
        storeId: submission.storeId,
        objectType: submission.objectType,
        source: 'v2',
        receivedAt,
        messages: submission.messages.map((message, index): InboundMessage => ({
          externalObjectId: message.externalObjectId,
          action: message.action,
          changedAt: changeTimeOf(message.changedAt, `body/messages/${index}/changedAt`, receivedAt),
          properties: message.properties ?? {},
          ...withAssociations(message.associations),
        })),
      },
      checkStore,
    );
  }

  /** Admits the batch at its portal's pace, then (once `stillValid` passes) publishes it durably. */
  private async publish({ bytes = 0, signal }: HeldRequest, batch: SyncBatchMessage, stillValid?: () => Promise<void>): Promise<void> {
    const chargedMs = await this.intake.admit(batch.tenant.portalId, batch.messages.length, bytes, signal);
    if (stillValid) {
      try {
        await stillValid();
      } catch (error) {
        if (chargedMs > 0) await this.intake.giveBack(batch.tenant.portalId, chargedMs);
        throw error;
      }
    }
    const lane = this.lanes.laneFor(batch.tenant.portalId, batch.messages.length);
    try {
      await this.broker.publish(`${TOPICS.syncBatch}.${batch.objectType}`, batch, { lane });
    } catch (error) {
      // Nothing was accepted, so nothing of the pace or the lane share was spent: the sender's retry finds them as they were.
      this.lanes.giveBack(batch.tenant.portalId, lane, batch.messages.length);
      if (chargedMs > 0) await this.intake.giveBack(batch.tenant.portalId, chargedMs);
      // Sent again it would fail again: a body limit set above what the broker takes (decision 63).
      if (error instanceof MessageTooLargeError) {
        this.logger.warn('a sync batch is larger than the broker takes: keep GATEWAY_BODY_LIMIT well under it', {
          batchId: batch.batchId,
          portalId: batch.tenant.portalId,
          bytes: error.bytes,
          maxBytes: error.maxBytes,
        });
        throw new AppError(
          413,
          `The batch is ${error.bytes} bytes as a message, more than the broker takes (${error.maxBytes}); send fewer or smaller messages per request`,
        );
      }
      this.logger.error('publishing a sync batch failed', { error: String(error), batchId: batch.batchId });
      throw AppError.unavailable('The batch could not be stored durably, so nothing was accepted; send it again');
    }
    this.logger.info('sync batch accepted', {
      batchId: batch.batchId,
      portalId: batch.tenant.portalId,
      objectType: batch.objectType,
      count: batch.messages.length,
    });
  }
}

/**
 * How far after its receipt a change time may lie (clocks apart): a time beyond it would win over
 * every later change of the object for as long, so that every update and delete sent meanwhile
 * would be dropped (decision 19, addendum).
 */
export const MAX_CHANGE_TIME_AHEAD_MS = 24 * 60 * 60 * 1000;

/**
 * A message's change time in whole epoch ms; null when left out or sent as null (the mapper takes
 * the time of receipt); 400 when a date-time is out of range, or the time lies more than a day
 * after `receivedAt`.
 */
function changeTimeOf(value: number | string | null | undefined, field: string, receivedAt: number): number | null {
  if (value === undefined || value === null) return null;
  const millis = toEpochMillis(value);
  if (!Number.isFinite(millis) || millis < 0) throw AppError.badRequest(`${field} must be a time from 1970 on; got "${value}"`);
  if (millis > receivedAt + MAX_CHANGE_TIME_AHEAD_MS) {
    throw AppError.badRequest(
      `${field} is ${new Date(millis).toISOString()}, more than a day after now (${new Date(receivedAt).toISOString()}); got "${value}". ` +
        'Send when the change occurred, in epoch milliseconds (not microseconds), or leave it out for the time of receipt',
    );
  }
  return millis;
}

/** The associations field of a message as published: what was sent, without the types sent as null (decision 0060). */
function withAssociations(associations: V2SyncMessage['associations']): { associations?: V2Associations } {
  const kept = sentAssociations(associations);
  return kept ? { associations: kept } : {};
}
