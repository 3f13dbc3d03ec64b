import type { MappedChange, ObjectType } from '@ecomm-sync/contracts';
import { CrmPartialFailure, type CrmObject, type CrmPort } from '@ecomm-sync/crm-client';
import { SYNC_KEY_PROPERTY, syncKeyOf, type PlannedWrite } from '@ecomm-sync/domain';
import type { ChangeGroup } from './change-group';
import { sendIsolated, type CrmRefusal } from './crm-batch-writer';

// How a create reaches the CRM: by a key the CRM holds one object for, so that a retried create,
// or ids that share an e-mail, find the object made first.

/**
 * Creates by the sync key (unique per object and generation), so that a retried create finds what
 * the first one made. The inputs it wrote are linked, of a 207 too (sendIsolated fails the others).
 * Each input writes its key as a property too: an answer echoes the properties an input wrote,
 * which is how its objects are told apart.
 */
export async function upsertBySyncKey(crm: CrmPort, group: ChangeGroup, plans: PlannedWrite[]): Promise<void> {
  const keyed = plans.map((plan) => ({ plan, key: syncKeyOf(group, plan.change.externalObjectId, plan.change.generation) }));
  await linkWritten(
    () =>
      crm.batchUpsert(
        group.objectType,
        SYNC_KEY_PROPERTY,
        keyed.map(({ plan, key }) => ({ id: key, properties: { ...plan.properties, [SYNC_KEY_PROPERTY]: key } })),
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
export async function upsertContactsByEmail(crm: CrmPort, group: ChangeGroup, plans: PlannedWrite[]): Promise<void> {
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

/**
 * The contact a conflict names as holding the e-mail an update wanted to give another ("Contact
 * already exists. Existing ID: N"): a 409, or an input of a 207 with the category CONFLICT (a batch
 * sent with trace ids may be answered per input).
 */
const existingContactOf = (refusal: CrmRefusal): number | null => {
  const conflict = refusal.crm.status === 409 || refusal.crm.category === 'CONFLICT';
  const id = conflict ? /Existing ID: (\d+)/.exec(refusal.message)?.[1] : undefined;
  return id ? Number(id) : null;
};

/**
 * A linked contact whose new e-mail another CRM contact holds (the CRM answers 409 naming it) is
 * linked to that contact and written there, as SPEC links a new id by e-mail: one contact per
 * e-mail. The contact it leaves keeps its data.
 */
export async function relinkToExistingContacts(crm: CrmPort, plans: PlannedWrite[], failures: Map<MappedChange, CrmRefusal>): Promise<void> {
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

/**
 * The CRM's answer that an object is gone: OBJECT_NOT_FOUND (a 404 of the CRM's, or an input of a
 * 207). A 404 without it (a wrong address, a proxy) says nothing of the object.
 */
const objectGone = (refusal: CrmRefusal) => refusal.crm.category === 'OBJECT_NOT_FOUND';

/**
 * Whether a planned update holds what a create of its type needs (SPEC.md "Required properties"):
 * a contact its e-mail, a deal its stage, a line item its deal and product. An update may lack them
 * (they were sent before); it is then not made again.
 */
function creatable(objectType: ObjectType, plan: PlannedWrite): boolean {
  switch (objectType) {
    case 'CONTACT':
      return Boolean(plan.properties.email);
    case 'DEAL':
      return Boolean(plan.properties.dealstage);
    case 'LINE_ITEM':
      return Boolean(plan.properties.hs_product_id) && (plan.associations.DEAL?.length ?? 0) > 0;
    case 'PRODUCT':
      return true;
  }
}

/**
 * A linked object whose CRM object is gone (deleted in the CRM by hand; a contact also archived by
 * the DELETE of another id that shared it by e-mail) is created again, as a new id is, when its
 * update holds what a create needs: its update's failure is dropped, and the create pass that
 * follows writes and links it (a contact by its e-mail, the others by their sync key, which the
 * archived object no longer holds). Otherwise its update fails, as before.
 */
export function recreateGoneObjects(objectType: ObjectType, plans: PlannedWrite[], failures: Map<MappedChange, CrmRefusal>): void {
  for (const plan of plans) {
    const failure = failures.get(plan.change);
    if (!failure || plan.crmId === null || !objectGone(failure) || !creatable(objectType, plan)) continue;
    failures.delete(plan.change);
    plan.crmId = null;
  }
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
