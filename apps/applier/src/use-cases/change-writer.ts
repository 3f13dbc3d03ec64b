import type { MappedChange, ObjectType, Problem } from '@ecomm-sync/contracts';
import { CrmPartialFailure, type CrmObject, type CrmPort } from '@ecomm-sync/crm-client';
import type { ObjectSync, Portal, Repositories } from '@ecomm-sync/data-access';
import { describeFailure, ECOMM_SYNCED_PROPERTY, SYNC_KEY_PROPERTY, syncKeyOf, validateChange } from '@ecomm-sync/domain';
import type { ApplyOutcome } from './apply-outcome';
import { ASSOCIATIONS, waitingKey, type ChangeGroup } from './change-group';
import { sendIsolated } from './crm-batch-writer';
import type { CrmDirectory } from './crm-directory';

interface PlannedWrite {
  change: MappedChange;
  crmId: number | null;
  properties: Record<string, string | null>;
  associations: Partial<Record<ObjectType, number[]>>;
  /** Objects of optional associations that are not synced yet: associated when they arrive. */
  associateLater: string[];
  problems: Problem[];
}

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
    const { tenant, storeId, objectType } = group;
    const defined = await this.crm.definedProperties(portal, objectType, new Set(upserts.flatMap((change) => Object.keys(change.properties))));
    const targets = await this.associationTargets(group, upserts);
    const plans: PlannedWrite[] = [];
    const staleCrmIds: number[] = [];

    for (const change of upserts) {
      const sync = syncs.get(change.externalObjectId);
      const live = sync?.crmId && !sync.archived ? sync : undefined;
      if (live && live.generation !== change.generation) staleCrmIds.push(live.crmId!);
      const crmId = live && live.generation === change.generation ? live.crmId : null;
      const validated = validateChange(objectType, change, { definedProperties: defined, isCreate: crmId === null });
      const problems = [...change.problems, ...validated.problems];
      const associations: PlannedWrite['associations'] = {};
      const waitingFor: string[] = [];
      const associateLater: string[] = [];
      for (const { type, property, required } of ASSOCIATIONS[objectType] ?? []) {
        const wanted = change.associations[type] ?? [];
        const found = wanted.map((id) => targets.get(type)?.get(id)).filter((id): id is number => id !== undefined);
        const missing = wanted.filter((id) => !targets.get(type)?.has(id));
        if (required && missing.length > 0) {
          if (crmId === null) waitingFor.push(...missing.map((id) => waitingKey(type, id)));
          problems.push({
            type: 'INVALID_ASSOCIATION_PROPERTY',
            blocking: crmId === null,
            details: describeFailure(crmId === null ? 'CREATE' : 'UPDATE', objectType, change.externalObjectId, `no synced ${type} has this id`, {
              [property]: missing[0],
            }),
          });
        }
        // Invalid optional associations cause no error (SPEC.md); they are made if the objects arrive.
        if (!required) associateLater.push(...missing.map((id) => waitingKey(type, id)));
        if (found.length > 0) associations[type] = found;
      }
      const blocking = problems.filter((problem) => problem.blocking);
      if (blocking.length > 0 && waitingFor.length > 0 && blocking.every((problem) => problem.type === 'INVALID_ASSOCIATION_PROPERTY')) {
        outcome.waits(change, problems, waitingFor);
        continue;
      }
      if (blocking.length > 0) {
        outcome.processed(change, problems);
        continue;
      }
      const properties = { ...validated.properties };
      if (defined.has(ECOMM_SYNCED_PROPERTY)) properties[ECOMM_SYNCED_PROPERTY] = 'true';
      plans.push({ change, crmId, properties, associations, associateLater, problems });
    }

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
        const keyed = chunk.map((plan) => ({ plan, key: syncKeyOf(tenant, storeId, objectType, plan.change.externalObjectId, plan.change.generation) }));
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
      const syncs = await this.repositories.objectSyncs.findMany(group.tenant, group.storeId, type, ids);
      targets.set(type, new Map([...syncs].filter(([, sync]) => sync.crmId && !sync.archived).map(([id, sync]) => [id, sync.crmId!])));
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
