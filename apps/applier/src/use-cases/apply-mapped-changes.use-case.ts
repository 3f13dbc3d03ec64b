import type { MappedChange, MappedChangesMessage, Tenant } from '@ecomm-sync/contracts';
import type { ParkedChange, Repositories } from '@ecomm-sync/data-access';
import { describeFailure, planGroupWrites } from '@ecomm-sync/domain';
import { sendingFor } from '@ecomm-sync/crm-client';
import type { Logger } from '@ecomm-sync/runtime';
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
  revisionOf,
  waitingKey,
  type ChangeGroup,
  type LinkedObjects,
} from './change-group';
import { ChangeWriter } from './change-writer';
import type { CrmDirectory } from './crm-directory';
import type { CrmWaits } from './crm-waits';
import { ObjectLocks } from './object-locks';
import { TenantAccess } from './tenant-access';
import { RevisionRepair, type RequestRefresh } from './revision-repair';
import { WaitingChanges } from './waiting-changes';

export type { RequestRefresh } from './revision-repair';

const toWrite = (changes: readonly MappedChange[]) => changes.map((change) => change.externalObjectId);

/** What the use case works with; the CRM waits are shared with the resume of parked work in the same process. */
export interface ApplyMappedChangesDeps {
  repositories: Pick<
    Repositories,
    'objectSyncs' | 'syncErrors' | 'portals' | 'waitingObjects' | 'ecommerceInstalls' | 'settings' | 'checkouts' | 'parkedChanges' | 'crmWaits'
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

/**
 * Applies mapped object states to the CRM in bulk, then records links, status and errors. Each
 * group goes load, plan, execute, record: the use case loads the group's links and claims it,
 * `planGroupWrites` (libs/domain, pure) decides what becomes of each change, ChangeWriter carries
 * the plan out in the CRM, and the outcome is recorded. Idempotent: a revision already recorded is
 * skipped, and creates go through an upsert by a key the CRM holds once (the sync key; a
 * contact's e-mail), so a retried create finds what the first one made.
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
  private readonly repair: RevisionRepair;
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
    this.access = new TenantAccess(repositories, clock);
    this.writer = new ChangeWriter(repositories, crm);
    this.waiting = new WaitingChanges(repositories, this.writer, (group) => this.applyGroup(group), clock, waitWindowMs);
    this.repair = new RevisionRepair(this.waiting, requestRefresh, logger);
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
            if (await this.waits.parkFor(group, error, this.logger)) continue;
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

  /** Drops what is cached of one tenant (its install or stores changed: the gateway broadcasts it), and of its portal with `portal`. */
  forgetTenant(tenant: Tenant, { portal }: { portal: boolean }): void {
    this.access.forgetTenant(tenant, { portal });
  }

  /**
   * Applies a group once no earlier work on any of its objects is running in this process. Its CRM
   * requests are recorded as sent for its tenant (the request log, decision 0051).
   */
  private applyGroup(group: ChangeGroup): Promise<LinkedObjects> {
    const keys = [...group.changes.keys()].map((id) => objectLockKey(group, id));
    return this.locks.run(keys, () => sendingFor(group.tenant, () => this.applyLocked(group, 1)));
  }

  private async applyLocked(group: ChangeGroup, round: number): Promise<LinkedObjects> {
    const { tenant, storeId, objectType } = group;
    const linked: LinkedObjects = { tenant, storeId, keys: [] };
    const ids = [...group.changes.keys()];
    const syncs = await this.repositories.objectSyncs.findMany(group, ids);
    const fresh = [...group.changes.values()].filter((change) => isToApply(group, change, syncs.get(change.externalObjectId)));
    await this.repair.doneWith(
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
    await this.repair.doneWith(group, claim.notNewer);

    const mine = fresh.filter((candidate) => claimed.has(candidate.externalObjectId));
    const plan = planGroupWrites(objectType, mine, await this.writer.loadContext(portal, group, mine, claimed));
    await this.writer.execute(crm, group, plan, outcome);

    // Errors before status: once an object reads as processed, its errors are already visible.
    await this.repositories.syncErrors.record(group, outcome.errors);
    await this.repositories.syncErrors.resolve(group, outcome.clean, this.clock());
    const recorded = await this.repositories.objectSyncs.recordProcessed(group, outcome.records, claim);
    if (objectType === 'DEAL') await this.repositories.checkouts.track(tenant, storeId, checkoutStates(group, claimed, outcome.records), outcome.now);
    if (ASSOCIATIONS[objectType]) await this.waiting.keep(group, outcome);
    linked.keys = outcome.records.filter((record) => record.link && !record.link.archived).map((record) => waitingKey(objectType, record.externalObjectId));
    const waiting = [...outcome.waiting, ...outcome.laterAssociations];
    if (waiting.length > 0) linked.keys.push(...(await this.waiting.arrivedMeanwhile(group, waiting)));

    await this.repair.repair(group, recorded, round, linked, (again, next) => this.applyLocked(again, next));
    return linked;
  }
}
