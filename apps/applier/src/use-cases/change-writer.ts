import type { MappedChange, ObjectType } from '@ecomm-sync/contracts';
import type { CrmPort } from '@ecomm-sync/crm-client';
import type { Portal, Repositories } from '@ecomm-sync/data-access';
import {
  describeFailure,
  errorTypeOfCrmRefusal,
  splitGroup,
  type GroupWritePlan,
  type PlannedWrite,
  type UpsertContext,
  type UpsertPlan,
} from '@ecomm-sync/domain';
import type { ApplyOutcome } from './apply-outcome';
import { ASSOCIATIONS, type ChangeGroup } from './change-group';
import { sendIsolated, type CrmRefusal } from './crm-batch-writer';
import type { CrmDirectory } from './crm-directory';
import { recreateGoneObjects, relinkToExistingContacts, upsertBySyncKey, upsertContactsByEmail } from './crm-upserts';

/**
 * The applier's executor: loads what planning a group needs (planGroupWrites in libs/domain
 * decides), then carries the plan out in the portal's CRM in bulk: archives for deletes; for
 * upserts, updates of linked objects and creates by a key the CRM holds once (crm-upserts), then
 * associations. What happened to each change goes into the outcome.
 */
export class ChangeWriter {
  constructor(
    private readonly repositories: Pick<Repositories, 'objectSyncs'>,
    private readonly crm: CrmDirectory,
  ) {}

  /**
   * What planning a claimed group needs besides its links: for its upserts, the CRM's properties
   * (cached) and the CRM ids of the objects they associate with. Nothing is read for a group
   * without upserts.
   */
  async loadContext(portal: Portal, group: ChangeGroup, changes: readonly MappedChange[], links: UpsertContext['links']): Promise<UpsertContext> {
    const { upserts } = splitGroup(changes);
    if (upserts.length === 0) return { links, definedProperties: new Set(), targets: new Map() };
    const names = new Set(upserts.flatMap((change) => Object.keys(change.properties)));
    const [definedProperties, targets] = await Promise.all([
      this.crm.definedProperties(portal, group.objectType, names),
      this.associationTargets(group, upserts),
    ]);
    return { links, definedProperties, targets };
  }

  /** Carries out a group's plan in the portal's CRM, in bulk, and notes what became of each change in the outcome. */
  async execute(crm: CrmPort, group: ChangeGroup, plan: GroupWritePlan, outcome: ApplyOutcome): Promise<void> {
    for (const { change, problems } of plan.blocked) outcome.processed(change, problems);
    const archived = plan.deletes.flatMap((planned) => (planned.archive === null ? [] : [planned.archive]));
    if (archived.length > 0) await crm.batchArchive(group.objectType, archived);
    for (const { change, link } of plan.deletes) outcome.processed(change, change.problems, link);
    await this.writeUpserts(crm, group, plan.upserts, outcome);
  }

  private async writeUpserts(crm: CrmPort, group: ChangeGroup, { writes: plans, waits, fails, staleCrmIds }: UpsertPlan, outcome: ApplyOutcome): Promise<void> {
    const { objectType } = group;
    for (const { change, problems, waitingFor } of waits) outcome.waits(change, problems, waitingFor);
    // A failed create of an object made again records its earlier CRM object as archived (it is, below).
    for (const { change, problems, link } of fails) outcome.processed(change, problems, link);
    if (plans.length === 0) {
      // An object deleted and made again whose new create fails or waits: its CRM object of before goes all the same.
      if (staleCrmIds.length > 0) await crm.batchArchive(objectType, staleCrmIds);
      return;
    }

    const failures = new Map<MappedChange, CrmRefusal>();
    await sendIsolated(
      plans.filter((plan) => plan.crmId !== null),
      (chunk) =>
        crm.batchUpdate(
          objectType,
          chunk.map((plan) => ({ id: plan.crmId!, properties: plan.properties })),
        ),
      failures,
    );
    if (objectType === 'CONTACT') await relinkToExistingContacts(crm, plans, failures);
    recreateGoneObjects(objectType, plans, failures);
    await sendIsolated(
      plans.filter((plan) => plan.crmId === null),
      (chunk) => (objectType === 'CONTACT' ? upsertContactsByEmail(crm, group, chunk) : upsertBySyncKey(crm, group, chunk)),
      failures,
    );
    // Not an object a write of the group landed on: a contact made again with its e-mail of before is
    // upserted onto its old CRM contact, which then stays, linked to the new generation.
    const landed = new Set(plans.map((plan) => plan.crmId));
    const stale = staleCrmIds.filter((id) => !landed.has(id));
    if (stale.length > 0) await crm.batchArchive(objectType, stale);

    const written = plans.filter((plan) => plan.crmId !== null && !failures.has(plan.change));
    const refusedTargets = await this.associate(crm, objectType, written);
    for (const plan of plans) {
      const failure = failures.get(plan.change) ?? (plan.crmId === null ? { message: 'the CRM returned no id for the object', crm: {} } : undefined);
      if (failure) {
        outcome.processed(
          plan.change,
          [
            ...plan.problems,
            {
              // What the CRM said was wrong, where it names it (an enumeration option, a date); else UNKNOWN_ERROR.
              type: errorTypeOfCrmRefusal(failure.message),
              blocking: true,
              details: describeFailure(plan.crmId === null ? 'CREATE' : 'UPDATE', objectType, plan.change.externalObjectId, failure.message),
              ...(Object.keys(failure.crm).length > 0 ? { crm: failure.crm } : {}),
            },
          ],
          plan.replaces,
        );
        continue;
      }
      const refused = refusedTargets.get(plan.change);
      const problems = refused
        ? [
            ...plan.problems,
            {
              type: 'UNKNOWN_ERROR' as const,
              blocking: false,
              details: describeFailure(
                'UPSERT',
                objectType,
                plan.change.externalObjectId,
                `written, but the CRM refused its association with its ${refused.type}: ${refused.message}`,
              ),
              ...(Object.keys(refused.crm).length > 0 ? { crm: refused.crm } : {}),
            },
          ]
        : plan.problems;
      outcome.processed(plan.change, problems, { crmId: plan.crmId, generation: plan.change.generation, archived: false });
      if (plan.associateLater.length > 0) outcome.associatesLater(plan.change, plan.associateLater);
    }
  }

  /** CRM ids of the objects the changes associate with, by type and external id (one read per type). */
  async associationTargets(group: ChangeGroup, changes: readonly MappedChange[]): Promise<Map<ObjectType, Map<string, number>>> {
    const targets = new Map<ObjectType, Map<string, number>>();
    for (const { type } of ASSOCIATIONS[group.objectType] ?? []) {
      const ids = [...new Set(changes.flatMap((change) => change.associations[type] ?? []))];
      if (ids.length === 0) continue;
      targets.set(type, await this.repositories.objectSyncs.liveCrmIds({ tenant: group.tenant, storeId: group.storeId, objectType: type }, ids));
    }
    return targets;
  }

  /**
   * Associates the written objects with their targets, pair by pair as far as the CRM refuses
   * (sendIsolated halves down to the refused pairs: a deal's other contacts are still associated).
   * The object stays written and linked whatever the CRM answers: a required target it refused (a
   * line item's deal) is returned by change, for a non-blocking error; a deal's contacts it refused
   * cause no error (SPEC.md).
   */
  private async associate(crm: CrmPort, objectType: ObjectType, written: PlannedWrite[]): Promise<Map<MappedChange, CrmRefusal & { type: ObjectType }>> {
    const refusedTargets = new Map<MappedChange, CrmRefusal & { type: ObjectType }>();
    for (const { type, required } of ASSOCIATIONS[objectType] ?? []) {
      const pairs = written.flatMap(({ change, crmId, associations }) => (associations[type] ?? []).map((toId) => ({ change, fromId: crmId!, toId })));
      const refused = new Map<MappedChange, CrmRefusal>();
      await sendIsolated(
        pairs,
        (chunk) =>
          crm.batchAssociate(
            objectType,
            type,
            chunk.map(({ fromId, toId }) => ({ fromId, toId })),
          ),
        refused,
      );
      if (required) for (const [change, refusal] of refused) refusedTargets.set(change, { ...refusal, type });
    }
    return refusedTargets;
  }
}
