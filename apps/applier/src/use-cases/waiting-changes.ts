import type { ObjectScope, ObjectType } from '@ecomm-sync/contracts';
import type { Repositories, WaitingObject } from '@ecomm-sync/data-access';
import { keyOf } from '@ecomm-sync/domain';
import type { ApplyOutcome, WaitingEntry } from './apply-outcome';
import { addToGroups, revisionOf, waitingKey, type ChangeGroup, type LinkedObjects } from './change-group';
import type { ChangeWriter } from './change-writer';
import { crmWaitCauseOf } from './crm-waits';

/**
 * Changes kept until the objects they associate with are synced (a line item before its deal or
 * product, a deal before its contacts): stored when a group is applied, released when a group
 * links what they wait for, and tried again periodically (DESIGN.md: a window of 24 hours).
 */
export class WaitingChanges {
  constructor(
    private readonly repositories: Pick<Repositories, 'waitingObjects' | 'objectSyncs'>,
    private readonly writer: Pick<ChangeWriter, 'associationTargets'>,
    /** Applies a group as fresh changes are applied (object locks, claims, records). */
    private readonly applyGroup: (group: ChangeGroup) => Promise<LinkedObjects>,
    private readonly clock: () => number,
    private readonly windowMs: number,
  ) {}

  /**
   * The periodic retry: applies waiting changes still within their window whose objects have
   * arrived meanwhile (covers a crash between linking a deal and releasing what waited for it),
   * forgets expired ones. Changes whose objects are still missing cost no CRM request.
   */
  async retry(limit: number): Promise<void> {
    const now = this.clock();
    await this.repositories.waitingObjects.expire(now);
    const due = await this.repositories.waitingObjects.due(now, limit);
    const arrived = await this.arrivedFor(due);
    // Every one looked at goes to the back of the line, the arrived ones too: one held from applying
    // (its tenant paused) would otherwise come first again and again, ahead of everyone else's.
    await this.repositories.waitingObjects.markTried(due, now);
    await this.apply(arrived);
  }

  /** Applies the waiting changes that objects just linked were holding up. */
  async release(linked: LinkedObjects[]): Promise<void> {
    for (const { tenant, storeId, keys } of linked.filter((entry) => entry.keys.length > 0)) {
      await this.apply(await this.repositories.waitingObjects.waitingFor(tenant, storeId, keys, this.clock()));
    }
  }

  /** Stores what a group left waiting for objects not synced yet; forgets the waiting entries of the others. */
  async keep(group: ChangeGroup, outcome: ApplyOutcome): Promise<void> {
    const { waitingObjects } = this.repositories;
    await waitingObjects.wait(group, outcome.waiting, outcome.now, this.windowMs);
    await waitingObjects.wait(group, outcome.laterAssociations, outcome.now, this.windowMs, { reapply: true });
    const waiting = outcome.stillWaiting;
    await waitingObjects.release(group, outcome.records.filter((record) => !waiting.has(record.externalObjectId)).map(revisionOf));
  }

  /** Forgets waiting entries of changes judged not to apply (only at the revisions judged: a newer entry stays). */
  async done(group: ChangeGroup, externalObjectIds: readonly string[]): Promise<void> {
    const waited = externalObjectIds.filter((id) => group.fromWaiting.has(id)).map((id) => revisionOf(group.changes.get(id)!));
    await this.repositories.waitingObjects.release(group, waited);
  }

  /**
   * The objects (`TYPE:id`) that changes just stored as waiting wait for and that are linked by
   * now. A group that linked such an object concurrently may have looked for waiting changes
   * before these were stored; looking at the links after storing them means one of the two always
   * sees the other.
   */
  async arrivedMeanwhile(group: ChangeGroup, waiting: WaitingEntry[]): Promise<string[]> {
    const targets = await this.writer.associationTargets(
      group,
      waiting.map(({ change }) => change),
    );
    const arrived = new Set([...targets].flatMap(([type, ids]) => [...ids.keys()].map((id) => waitingKey(type, id))));
    return [...new Set(waiting.flatMap(({ waitingFor }) => waitingFor))].filter((key) => arrived.has(key));
  }

  private async apply(waiting: WaitingObject[]): Promise<void> {
    if (waiting.length === 0) return;
    const groups = new Map<string, ChangeGroup>();
    for (const entry of waiting) addToGroups(groups, entry, [entry.change], { reapply: entry.reapply, fromWaiting: true });
    const linked: LinkedObjects[] = [];
    for (const group of groups.values()) {
      try {
        linked.push(await this.applyGroup(group));
      } catch (error) {
        // The portal's CRM cannot take them now: they keep waiting, and are tried again later.
        if (!crmWaitCauseOf(error)) throw error;
      }
    }
    await this.release(linked);
  }

  /** The waiting entries of which at least one awaited object is synced by now. */
  private async arrivedFor(entries: WaitingObject[]): Promise<WaitingObject[]> {
    const byTarget = new Map<string, { scope: ObjectScope; ids: Set<string> }>();
    for (const entry of entries) {
      for (const key of entry.waitingFor) {
        const [objectType, ...rest] = key.split(':') as [ObjectType, ...string[]];
        const target = keyOf(entry.tenant.portalId, entry.tenant.appId, entry.storeId, objectType);
        const found = byTarget.get(target) ?? { scope: { tenant: entry.tenant, storeId: entry.storeId, objectType }, ids: new Set<string>() };
        found.ids.add(rest.join(':'));
        byTarget.set(target, found);
      }
    }
    const synced = new Set<string>();
    for (const [target, { scope, ids }] of byTarget) {
      const syncs = await this.repositories.objectSyncs.findMany(scope, [...ids]);
      for (const [id, sync] of syncs) if (sync.crmId && !sync.archived) synced.add(`${target}|${waitingKey(scope.objectType, id)}`);
    }
    return entries.filter((entry) =>
      entry.waitingFor.some((key) => synced.has(`${keyOf(entry.tenant.portalId, entry.tenant.appId, entry.storeId, key.split(':')[0])}|${key}`)),
    );
  }
}
