import type { MappedChange, ObjectType, Problem } from '@ecomm-sync/contracts';
import { planUpserts, type StoredLink, type UpsertContext, type UpsertPlan } from './plan-upserts';

/** A delete as the applier carries it out: the CRM object to archive (its live link), and the link it records. */
export interface PlannedDelete {
  change: MappedChange;
  /** The CRM object to archive; null when the object has no live link (nothing to archive). */
  archive: number | null;
  /** The link recorded with it: archived; absent when the object was never linked. */
  link?: { crmId: number; generation: number; archived: true };
}

/** What the applier writes for a group of changes it has claimed, and records for each. */
export interface GroupWritePlan {
  /** Changes whose mapping found a blocking problem: recorded as processed with their problems, never written. */
  blocked: { change: MappedChange; problems: Problem[] }[];
  deletes: PlannedDelete[];
  upserts: UpsertPlan;
}

/** A group's changes by what becomes of them: blocked by a mapping problem, deleted, or upserted. */
export function splitGroup(changes: readonly MappedChange[]): { blocked: MappedChange[]; deletes: MappedChange[]; upserts: MappedChange[] } {
  const split = { blocked: [] as MappedChange[], deletes: [] as MappedChange[], upserts: [] as MappedChange[] };
  for (const change of changes) {
    if (change.problems.some((problem) => problem.blocking)) split.blocked.push(change);
    else if (change.action === 'DELETE') split.deletes.push(change);
    else split.upserts.push(change);
  }
  return split;
}

/**
 * The applier's plan for a claimed group (pure; the applier executes it): blocked changes are
 * recorded, deletes archive the live CRM object they are linked to, upserts are decided by
 * planUpserts (update, create, wait or fail). `context` holds the stored links of every change,
 * and for upserts the CRM's properties and the association targets.
 */
export function planGroupWrites(objectType: ObjectType, changes: readonly MappedChange[], context: UpsertContext): GroupWritePlan {
  const { blocked, deletes, upserts } = splitGroup(changes);
  return {
    blocked: blocked.map((change) => ({ change, problems: change.problems })),
    deletes: deletes.map((change) => planDelete(change, context.links.get(change.externalObjectId))),
    upserts: planUpserts(objectType, upserts, context),
  };
}

function planDelete(change: MappedChange, stored: StoredLink | undefined): PlannedDelete {
  if (!stored?.crmId) return { change, archive: null };
  return { change, archive: stored.archived ? null : stored.crmId, link: { crmId: stored.crmId, generation: stored.generation, archived: true } };
}
