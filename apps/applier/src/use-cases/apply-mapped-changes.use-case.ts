import type { MappedChange, MappedChangesMessage, ObjectScope } from '@ecomm-sync/contracts';
import type { ParkedChange, RecordOutcome, Repositories } from '@ecomm-sync/data-access';
import { describeFailure } from '@ecomm-sync/domain';
import type { Logger } from '@ecomm-sync/logger';
import { ApplyOutcome } from './apply-outcome';
import {
  addToGroups,
  ASSOCIATIONS,
  checkoutStates,
  byPortal,
  inParkedBatches,
  inDependencyOrder,
  isToApply,
  objectLockKey,
  regroup,
  revisionOf,
  waitingKey,
  type ChangeGroup,
  type LinkedObjects,
} from './change-group';
import { ChangeWriter } from './change-writer';
import type { CrmDirectory } from './crm-directory';
import { CrmWaiting, crmWaitCauseOf, type CrmWaits } from './crm-waits';
import { ObjectLocks } from './object-locks';
import { TenantAccess } from './tenant-access';
import { WaitingChanges } from './waiting-changes';

/**
 * Asks for the newest state of objects to be mapped and sent again, to be written even if its
 * revision was applied already (the mapper answers with a re-apply message).
 */
export type RequestRefresh = (scope: ObjectScope, externalObjectIds: string[]) => Promise<void>;

const toWrite = (changes: readonly MappedChange[]) => changes.map((change) => change.externalObjectId);

/** What the use case works with; the CRM waits are shared with the resume of parked work in the same process. */
export interface ApplyMappedChangesDeps {
  repositories: Pick<
    Repositories,
    'objectSyncs' | 'syncErrors' | 'portals' | 'waitingObjects' | 'ecommerceInstalls' | 'checkouts' | 'parkedChanges' | 'crmWaits'
  >;
  crm: CrmDirectory;
  logger: Logger;
  /** The portals' CRM waits: one instance per process, given to ResumeCrmWorkUseCase too. */
  waits: CrmWaits;
  clock?: () => number;
  /** How long a change waits for the objects it associates with (DESIGN.md: 24 hours). */
  waitWindowMs?: number;
  requestRefresh?: RequestRefresh;
}

/** How often a group whose status records raced with another writer writes its objects again before handing them to a refresh. */
const MAX_REWRITE_ROUNDS = 3;

/**
 * Applies mapped object states to the CRM in bulk, then records links, status and errors.
 * Idempotent: a revision already recorded is skipped, creates go through an upsert by the
 * object's sync key (a retried create finds what the first one made), and contacts are matched
 * by e-mail before any create.
 *
 * Newest wins (docs/decisions/0018-newest-wins-under-concurrency.md): within the process, work on
 * an object waits for earlier work on it, so its revision read, CRM write and record are not
 * interleaved with another batch's; across replicas, a status record that raced with another
 * writer makes the object be written again with its newest state.
 */
export class ApplyMappedChangesUseCase {
  private readonly locks = new ObjectLocks();
  private readonly repositories: ApplyMappedChangesDeps['repositories'];
  private readonly crm: CrmDirectory;
  private readonly logger: Logger;
  private readonly waits: CrmWaits;
  private readonly clock: () => number;
  private readonly requestRefresh: RequestRefresh;
  private readonly access: TenantAccess;
  private readonly writer: ChangeWriter;
  private readonly waiting: WaitingChanges;

  constructor({
    repositories,
    crm,
    logger,
    waits,
    clock = Date.now,
    waitWindowMs = 24 * 60 * 60 * 1000,
    requestRefresh = async () => undefined,
  }: ApplyMappedChangesDeps) {
    this.repositories = repositories;
    this.crm = crm;
    this.logger = logger;
    this.waits = waits;
    this.clock = clock;
    this.requestRefresh = requestRefresh;
    this.access = new TenantAccess(repositories, clock);
    this.writer = new ChangeWriter(repositories, crm);
    this.waiting = new WaitingChanges(repositories, this.writer, (group) => this.applyGroup(group), clock, waitWindowMs);
  }

  /**
   * Returns the indexes of the messages that failed (to be retried); the others are done.
   * `delivered` holds the indexes of messages delivered before (redelivered or retried).
   */
  async execute(messages: readonly MappedChangesMessage[], delivered: ReadonlySet<number> = new Set()): Promise<Set<number>> {
    const groups = new Map<string, ChangeGroup>();
    messages.forEach((message, index) =>
      addToGroups(groups, message, message.changes, { reapply: message.reapply === true, suspect: delivered.has(index), messageIndex: index }),
    );
    const failed = new Set<number>();
    const linked: LinkedObjects[] = [];
    // Portals apart, so that one whose CRM makes it wait holds up no other; within a portal, objects
    // others associate with go first.
    await Promise.all(
      byPortal(groups.values()).map(async (portalGroups) => {
        for (const group of inDependencyOrder(portalGroups)) {
          try {
            linked.push(await this.applyGroup(group));
          } catch (error) {
            if (await this.parkedFor(group, error)) continue;
            this.logger.warn('applying a group of changes failed', { portalId: group.tenant.portalId, objectType: group.objectType, error: String(error) });
            for (const index of group.messageIndexes) failed.add(index);
          }
        }
      }),
    );
    await this.waiting.release(linked).catch((error) =>
      // The periodic retry (retryWaiting) picks them up.
      this.logger.warn('applying waiting changes failed', { error: String(error) }),
    );
    return failed;
  }

  /**
   * The periodic retry: applies waiting changes still within their window whose objects have
   * arrived meanwhile (covers a crash between linking a deal and releasing what waited for it),
   * forgets expired ones. Changes whose objects are still missing cost no CRM request.
   */
  retryWaiting(limit = 500): Promise<void> {
    return this.waiting.retry(limit);
  }

  /**
   * Applies parked changes of a portal whose wait ended in CRM batches (`inParkedBatches`: a few side
   * by side within a level of the associations) and releases each batch's parked changes once
   * applied: when the CRM stops taking them midway (the budget is spent again), what was written
   * stays done, no further batch starts, and only the rest waits. A CRM that still cannot take them
   * throws (they stay parked).
   */
  async applyParked(parked: readonly ParkedChange[]): Promise<void> {
    const groups = new Map<string, ChangeGroup>();
    for (const entry of parked) addToGroups(groups, entry, [entry.change], { reapply: entry.reapply });
    const linked: LinkedObjects[] = [];
    try {
      await inParkedBatches(groups.values(), async (group) => {
        linked.push(await this.applyGroup(group));
        await this.repositories.parkedChanges.release(group, [...group.changes.values()].map(revisionOf));
      });
    } finally {
      await this.waiting.release(linked);
    }
  }

  /** Drops cached portals and installs (a portal was disabled or enabled, a tenant (un)installed: the gateway broadcasts it). */
  forgetPortals(): void {
    this.access.forget();
  }

  /** Applies a group once no earlier work on any of its objects is running in this process. */
  private applyGroup(group: ChangeGroup): Promise<LinkedObjects> {
    const keys = [...group.changes.keys()].map((id) => objectLockKey(group, id));
    return this.locks.run(keys, () => this.applyLocked(group, 1));
  }

  private async applyLocked(group: ChangeGroup, round: number): Promise<LinkedObjects> {
    const { tenant, storeId, objectType } = group;
    const linked: LinkedObjects = { tenant, storeId, keys: [] };
    const ids = [...group.changes.keys()];
    const syncs = await this.repositories.objectSyncs.findMany(group, ids);
    const fresh = [...group.changes.values()].filter((change) => isToApply(group, change, syncs.get(change.externalObjectId)));
    await this.doneWith(
      group,
      ids.filter((id) => !fresh.some((change) => change.externalObjectId === id)),
    );
    if (fresh.length === 0) return linked;
    const outcome = new ApplyOutcome(this.clock());

    const access = await this.access.check(tenant);
    if ('held' in access) {
      const { held } = access;
      // Not recorded as processed, so that the catch-up applies them.
      for (const change of fresh) {
        outcome.problems(change, [
          {
            type: held.type,
            blocking: true,
            details: describeFailure(change.action === 'DELETE' ? 'DELETE' : 'UPSERT', objectType, change.externalObjectId, held.reason),
          },
        ]);
      }
      await this.repositories.syncErrors.record(group, outcome.errors);
      return linked;
    }
    const { portal } = access;
    await this.waits.check(portal.portalId);
    const crm = this.crm.clientFor(portal);
    const claim = await this.repositories.objectSyncs.claim(group, syncs, toWrite(fresh), (id, sync) => isToApply(group, group.changes.get(id)!, sync));
    const { claimed } = claim;
    await this.doneWith(group, claim.notNewer);

    const upserts: MappedChange[] = [];
    const deletes: MappedChange[] = [];
    for (const change of fresh.filter((candidate) => claimed.has(candidate.externalObjectId))) {
      const blocking = change.problems.filter((problem) => problem.blocking);
      if (blocking.length > 0) outcome.processed(change, change.problems);
      else if (change.action === 'DELETE') deletes.push(change);
      else upserts.push(change);
    }
    await this.writer.applyDeletes(crm, objectType, deletes, claimed, outcome);
    await this.writer.applyUpserts(crm, portal, group, upserts, claimed, outcome);

    // Errors before status: once an object reads as processed, its errors are already visible.
    await this.repositories.syncErrors.record(group, outcome.errors);
    await this.repositories.syncErrors.resolve(group, outcome.clean, this.clock());
    const recorded = await this.repositories.objectSyncs.recordProcessed(group, outcome.records, claim);
    if (objectType === 'DEAL') await this.repositories.checkouts.track(tenant, storeId, checkoutStates(group, claimed, outcome.records), outcome.now);
    if (ASSOCIATIONS[objectType]) await this.waiting.keep(group, outcome);
    linked.keys = outcome.records.filter((record) => record.link && !record.link.archived).map((record) => waitingKey(objectType, record.externalObjectId));
    const waiting = [...outcome.waiting, ...outcome.laterAssociations];
    if (waiting.length > 0) linked.keys.push(...(await this.waiting.arrivedMeanwhile(group, waiting)));

    await this.repair(group, recorded, round, linked);
    return linked;
  }

  /**
   * A group the portal's CRM cannot take now (rate limit, daily cap, no answer) is parked until the
   * portal's wait ends, and its messages are done: waiting is not failing. False for other errors,
   * and when parking fails (the messages are then retried).
   */
  private async parkedFor(group: ChangeGroup, error: unknown): Promise<boolean> {
    const cause = crmWaitCauseOf(error);
    if (!cause) return false;
    const portalId = group.tenant.portalId;
    try {
      const wait = error instanceof CrmWaiting ? error.wait : await this.waits.failed(portalId, cause);
      await this.waits.park(group, wait);
      if (!(error instanceof CrmWaiting))
        this.logger.warn('the CRM cannot take changes now; parked until it can', {
          portalId,
          reason: wait.reason,
          until: wait.until,
          lastAnswer: wait.lastAnswer,
        });
      return true;
    } catch (parkError) {
      this.logger.warn('parking changes failed; their messages are retried', { portalId, error: String(parkError) });
      return false;
    }
  }

  /**
   * Changes not to apply, since the same or a newer revision was applied: a waiting entry among
   * them is done with. One from a message delivered before may have been written to the CRM by
   * the earlier attempt, after the newer revision (a crash between writing and recording): the
   * newest state is asked for again.
   */
  private async doneWith(group: ChangeGroup, externalObjectIds: string[]): Promise<void> {
    if (externalObjectIds.length === 0) return;
    await this.waiting.done(group, externalObjectIds);
    const suspect = externalObjectIds.filter((id) => group.suspect.has(id));
    if (suspect.length > 0) await this.requestRefresh(group, suspect);
  }

  /**
   * Another writer (an applier replica) claimed some of these objects while this group wrote them,
   * so the CRM holds whichever write landed last. Where a newer revision than this group's is
   * recorded (`superseded`), the newest state is asked for again, first, so that nothing below can
   * lose the request; where nothing newer is (`contended`), it claims and writes it again now, and
   * asks for the newest state if that rewrite fails. Within one process the locks keep this from
   * happening.
   */
  private async repair(group: ChangeGroup, recorded: RecordOutcome, round: number, linked: LinkedObjects): Promise<void> {
    const rewrite = recorded.contended.length > 0 && round < MAX_REWRITE_ROUNDS;
    await this.refresh(group, rewrite ? recorded.superseded : [...recorded.superseded, ...recorded.contended]);
    if (!rewrite) return;
    this.logger.info('another writer wrote the same objects meanwhile; writing them again', {
      objectType: group.objectType,
      count: recorded.contended.length,
      round,
    });
    try {
      const again = await this.applyLocked(regroup(group, recorded.contended), round + 1);
      linked.keys.push(...again.keys);
    } catch (error) {
      // The rewrite did not happen (the CRM cannot take it now, most often): the group is parked or
      // retried as it came, which may hold older revisions than the raced objects' newest, so their
      // newest state is asked for too.
      await this.refresh(group, recorded.contended);
      throw error;
    }
  }

  /** Asks for the newest state of objects another writer raced with. */
  private async refresh(group: ChangeGroup, externalObjectIds: readonly string[]): Promise<void> {
    if (externalObjectIds.length === 0) return;
    this.logger.info('a newer revision was recorded while writing; asking for the newest state again', {
      objectType: group.objectType,
      count: externalObjectIds.length,
    });
    await this.requestRefresh(group, [...externalObjectIds]);
  }
}
