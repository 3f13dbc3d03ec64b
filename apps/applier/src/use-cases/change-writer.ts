import type { MappedChange, ObjectType } from '@ecomm-sync/contracts';
import { CrmPartialFailure, type CrmObject, type CrmPort } from '@ecomm-sync/crm-client';
import type { ObjectSync, Portal, Repositories } from '@ecomm-sync/data-access';
import { describeFailure, planUpserts, SYNC_KEY_PROPERTY, syncKeyOf, type PlannedWrite } from '@ecomm-sync/domain';
import type { ApplyOutcome } from './apply-outcome';
import { ASSOCIATIONS, type ChangeGroup } from './change-group';
import { sendIsolated } from './crm-batch-writer';
import type { CrmDirectory } from './crm-directory';

/**
 * Writes a group's changes to the portal's CRM in bulk: archives for deletes; for upserts,
 * validation against the CRM's properties, identity (link, contact e-mail, idempotent create by
 * sync key), associations. What happened to each change goes into the outcome.
 */
export class ChangeWriter {
  constructor(
    private readonly repositories: Pick<Repositories, 'objectSyncs'>,
    private readonly crm: CrmDirectory,
  ) {}

  async applyDeletes(crm: CrmPort, objectType: ObjectType, deletes: MappedChange[], syncs: Map<string, ObjectSync>, outcome: ApplyOutcome): Promise<void> {
    const linked = deletes.filter((change) => {
      const sync = syncs.get(change.externalObjectId);
      return sync?.crmId && !sync.archived;
    });
    if (linked.length > 0)
      await crm.batchArchive(
        objectType,
        linked.map((change) => syncs.get(change.externalObjectId)!.crmId!),
      );
    for (const change of deletes) {
      const sync = syncs.get(change.externalObjectId);
      outcome.processed(change, change.problems, sync?.crmId ? { crmId: sync.crmId, generation: sync.generation, archived: true } : undefined);
    }
  }

  async applyUpserts(
    crm: CrmPort,
    portal: Portal,
    group: ChangeGroup,
    upserts: MappedChange[],
    syncs: Map<string, ObjectSync>,
    outcome: ApplyOutcome,
  ): Promise<void> {
    if (upserts.length === 0) return;
    const { objectType } = group;
    const defined = await this.crm.definedProperties(portal, objectType, new Set(upserts.flatMap((change) => Object.keys(change.properties))));
    const targets = await this.associationTargets(group, upserts);
    const { writes: plans, waits, fails, staleCrmIds } = planUpserts(objectType, upserts, { links: syncs, definedProperties: defined, targets });
    for (const { change, problems, waitingFor } of waits) outcome.waits(change, problems, waitingFor);
    for (const { change, problems } of fails) outcome.processed(change, problems);

    if (objectType === 'CONTACT') await this.linkContactsByEmail(crm, plans);
    const failures = new Map<MappedChange, string>();
    await sendIsolated(
      plans.filter((plan) => plan.crmId !== null),
      (chunk) =>
        crm.batchUpdate(
          objectType,
          chunk.map((plan) => ({ id: plan.crmId!, properties: plan.properties })),
        ),
      failures,
    );
    await sendIsolated(
      plans.filter((plan) => plan.crmId === null),
      async (chunk) => {
        const keyed = chunk.map((plan) => ({ plan, key: syncKeyOf(group, plan.change.externalObjectId, plan.change.generation) }));
        const link = (results: CrmObject[]) => {
          const byKey = new Map(results.map((result) => [result.properties[SYNC_KEY_PROPERTY], result.id]));
          for (const { plan, key } of keyed) plan.crmId = byKey.get(key) ?? null;
        };
        try {
          link(
            await crm.batchUpsert(
              objectType,
              SYNC_KEY_PROPERTY,
              keyed.map(({ plan, key }) => ({ id: key, properties: plan.properties })),
            ),
          );
        } catch (error) {
          // A 207: the inputs it wrote are linked; sendIsolated fails the ones it refused.
          if (error instanceof CrmPartialFailure) link(error.results);
          throw error;
        }
      },
      failures,
    );
    if (staleCrmIds.length > 0) await crm.batchArchive(objectType, staleCrmIds);

    const written = plans.filter((plan) => plan.crmId !== null && !failures.has(plan.change));
    await this.associate(crm, objectType, written, failures);
    for (const plan of plans) {
      const failure = failures.get(plan.change) ?? (plan.crmId === null ? 'the CRM returned no id for the object' : undefined);
      if (failure) {
        outcome.processed(plan.change, [
          ...plan.problems,
          {
            type: 'UNKNOWN_ERROR',
            blocking: true,
            details: describeFailure(plan.crmId === null ? 'CREATE' : 'UPDATE', objectType, plan.change.externalObjectId, failure),
          },
        ]);
        continue;
      }
      outcome.processed(plan.change, plan.problems, { crmId: plan.crmId, generation: plan.change.generation, archived: false });
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

  /** One search for the whole batch: an unlinked contact whose e-mail the CRM knows is linked to that contact. */
  private async linkContactsByEmail(crm: CrmPort, plans: PlannedWrite[]) {
    const unlinked = plans.filter((plan) => plan.crmId === null && plan.properties.email);
    if (unlinked.length === 0) return;
    const found = await crm.findContactsByEmail(unlinked.map((plan) => plan.properties.email!));
    for (const plan of unlinked) plan.crmId = found.get(plan.properties.email!.toLowerCase()) ?? null;
  }

  private async associate(crm: CrmPort, objectType: ObjectType, written: PlannedWrite[], failures: Map<MappedChange, string>) {
    for (const { type } of ASSOCIATIONS[objectType] ?? []) {
      const withTarget = written.filter((plan) => plan.associations[type]?.length);
      await sendIsolated(
        withTarget,
        (chunk) =>
          crm.batchAssociate(
            objectType,
            type,
            chunk.flatMap((plan) => plan.associations[type]!.map((toId) => ({ fromId: plan.crmId!, toId }))),
          ),
        failures,
      );
    }
  }
}
