import type { MappedChange, ObjectType } from '@ecomm-sync/contracts';
import { CrmPartialFailure, type CrmObject, type CrmPort } from '@ecomm-sync/crm-client';
import type { ObjectSync, Portal, Repositories } from '@ecomm-sync/data-access';
import { describeFailure, planUpserts, SYNC_KEY_PROPERTY, syncKeyOf, type PlannedWrite } from '@ecomm-sync/domain';
import type { ApplyOutcome } from './apply-outcome';
import { ASSOCIATIONS, type ChangeGroup } from './change-group';
import { sendIsolated, type CrmRefusal } from './crm-batch-writer';
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
    await sendIsolated(
      plans.filter((plan) => plan.crmId === null),
      (chunk) => (objectType === 'CONTACT' ? upsertContactsByEmail(crm, group, chunk) : upsertBySyncKey(crm, group, chunk)),
      failures,
    );
    if (staleCrmIds.length > 0) await crm.batchArchive(objectType, staleCrmIds);

    const written = plans.filter((plan) => plan.crmId !== null && !failures.has(plan.change));
    await this.associate(crm, objectType, written, failures);
    for (const plan of plans) {
      const failure = failures.get(plan.change) ?? (plan.crmId === null ? { message: 'the CRM returned no id for the object', crm: {} } : undefined);
      if (failure) {
        outcome.processed(plan.change, [
          ...plan.problems,
          {
            type: 'UNKNOWN_ERROR',
            blocking: true,
            details: describeFailure(plan.crmId === null ? 'CREATE' : 'UPDATE', objectType, plan.change.externalObjectId, failure.message),
            ...(Object.keys(failure.crm).length > 0 ? { crm: failure.crm } : {}),
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

  private async associate(crm: CrmPort, objectType: ObjectType, written: PlannedWrite[], failures: Map<MappedChange, CrmRefusal>) {
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

/**
 * Creates by the sync key (unique per object and generation), so that a retried create finds what
 * the first one made. The inputs it wrote are linked, of a 207 too (sendIsolated fails the others).
 */
async function upsertBySyncKey(crm: CrmPort, group: ChangeGroup, plans: PlannedWrite[]): Promise<void> {
  const keyed = plans.map((plan) => ({ plan, key: syncKeyOf(group, plan.change.externalObjectId, plan.change.generation) }));
  await linkWritten(
    () =>
      crm.batchUpsert(
        group.objectType,
        SYNC_KEY_PROPERTY,
        keyed.map(({ plan, key }) => ({ id: key, properties: plan.properties })),
      ),
    (results) => {
      const byKey = new Map(results.map((result) => [result.properties[SYNC_KEY_PROPERTY], result.id]));
      for (const { plan, key } of keyed) plan.crmId = byKey.get(key) ?? null;
    },
  );
}

/**
 * Contacts are created by e-mail (SPEC: a new id whose e-mail a contact has is linked to that
 * contact): one input per address, the batch's changes of one address merged in order, so that
 * ids sharing an e-mail, in one batch, in concurrent batches or on other replicas, end as one
 * contact (decision 44). Each carries the sync key of the id that wrote it last.
 */
async function upsertContactsByEmail(crm: CrmPort, group: ChangeGroup, plans: PlannedWrite[]): Promise<void> {
  const byEmail = new Map<string, number[]>();
  plans.forEach((plan, index) => {
    const email = plan.properties.email!.toLowerCase();
    byEmail.set(email, [...(byEmail.get(email) ?? []), index]);
  });
  const emails = [...byEmail.keys()];
  const link = (results: CrmObject[]) => {
    const byResult = new Map(results.map((result) => [result.properties.email?.toLowerCase(), result.id]));
    for (const [email, indexes] of byEmail) for (const index of indexes) plans[index].crmId = byResult.get(email) ?? null;
  };
  try {
    link(
      await crm.batchUpsert(
        'CONTACT',
        'email',
        emails.map((email) => ({ id: email, properties: Object.assign({}, ...byEmail.get(email)!.map((index) => keyed(group, plans[index]))) })),
      ),
    );
  } catch (error) {
    if (!(error instanceof CrmPartialFailure)) throw error;
    link(error.results);
    // The CRM names the inputs (one per address) it refused: each stands for its address's changes.
    const failures = error.failures.flatMap((failure) =>
      failure.index < 0 ? [failure] : (byEmail.get(emails[failure.index]) ?? []).map((index) => ({ ...failure, index })),
    );
    throw new CrmPartialFailure(error.message, error.results, failures);
  }
}

/** The contact a 409 names as holding the e-mail an update wanted to give another ("Contact already exists. Existing ID: N"). */
const existingContactOf = (refusal: CrmRefusal): number | null => {
  const id = refusal.crm.status === 409 ? /Existing ID: (\d+)/.exec(refusal.message)?.[1] : undefined;
  return id ? Number(id) : null;
};

/**
 * A linked contact whose new e-mail another CRM contact holds (the CRM answers 409 naming it) is
 * linked to that contact and written there, as SPEC links a new id by e-mail: one contact per
 * e-mail. The contact it leaves keeps its data.
 */
async function relinkToExistingContacts(crm: CrmPort, plans: PlannedWrite[], failures: Map<MappedChange, CrmRefusal>): Promise<void> {
  const moved = plans.filter((plan) => {
    const existing = failures.has(plan.change) ? existingContactOf(failures.get(plan.change)!) : null;
    if (existing === null || existing === plan.crmId) return false;
    failures.delete(plan.change);
    plan.crmId = existing;
    return true;
  });
  await sendIsolated(
    moved,
    (chunk) =>
      crm.batchUpdate(
        'CONTACT',
        chunk.map((plan) => ({ id: plan.crmId!, properties: plan.properties })),
      ),
    failures,
  );
}

/** A contact's properties with its sync key, which keeps the CRM contact traceable to the id that wrote it last. */
const keyed = (group: ChangeGroup, plan: PlannedWrite) => ({
  ...plan.properties,
  [SYNC_KEY_PROPERTY]: syncKeyOf(group, plan.change.externalObjectId, plan.change.generation),
});

async function linkWritten(write: () => Promise<CrmObject[]>, link: (results: CrmObject[]) => void): Promise<void> {
  try {
    link(await write());
  } catch (error) {
    if (error instanceof CrmPartialFailure) link(error.results);
    throw error;
  }
}
