import type { MappedChange, MappedChangesMessage, ObjectType, Problem, Tenant } from '@ecomm-sync/contracts';
import { OBJECT_TYPES, V1_ASSOCIATION_PROPERTIES } from '@ecomm-sync/contracts';
import { CrmRequestError, type CrmPort } from '@ecomm-sync/crm-client';
import type { CheckoutState, NewSyncError, ObjectSync, Portal, ProcessedRecord, Repositories, WaitingObject } from '@ecomm-sync/data-access';
import { describeFailure, ECOMM_SYNCED_PROPERTY, PENDING_STAGE, SYNC_KEY_PROPERTY, syncKeyOf, validateChange } from '@ecomm-sync/domain';
import type { Logger } from '@ecomm-sync/logger';
import type { CrmDirectory } from './crm-directory';

interface ChangeGroup {
  tenant: Tenant;
  storeId: string;
  objectType: ObjectType;
  changes: Map<string, MappedChange>;
  messageIndexes: Set<number>;
}

interface PlannedWrite {
  change: MappedChange;
  crmId: number | null;
  properties: Record<string, string | null>;
  associations: Partial<Record<ObjectType, number[]>>;
  problems: Problem[];
}

/** What the application of one group produced; written to MongoDB after the CRM writes. */
class Outcome {
  readonly records: ProcessedRecord[] = [];
  readonly waiting: { change: MappedChange; waitingFor: string[] }[] = [];
  readonly errors: NewSyncError[] = [];
  readonly clean: string[] = [];

  constructor(readonly now: number) {}

  processed(change: MappedChange, problems: Problem[], link?: ProcessedRecord['link']) {
    this.records.push({
      externalObjectId: change.externalObjectId,
      rev: change.rev,
      settingsRev: change.settingsRev,
      processedAt: this.now,
      changedAt: change.changedAt,
      ...(link ? { link } : {}),
    });
    this.problems(change, problems);
  }

  /** Not processed yet: its error is recorded, and it applies once the objects it waits for arrive. */
  waits(change: MappedChange, problems: Problem[], waitingFor: string[]) {
    this.waiting.push({ change, waitingFor });
    this.problems(change, problems);
  }

  problems(change: MappedChange, problems: Problem[]) {
    if (problems.length === 0) {
      this.clean.push(change.externalObjectId);
      return;
    }
    for (const problem of problems) {
      this.errors.push({
        externalObjectId: change.externalObjectId,
        rev: change.rev,
        settingsRev: change.settingsRev,
        type: problem.type,
        details: problem.details,
        changedAt: change.changedAt,
        erroredAt: this.now,
      });
    }
  }
}

/** Association types an object needs the CRM ids of, with the v1 property that names each in error details. */
const ASSOCIATIONS: Partial<Record<ObjectType, { type: ObjectType; property: string; required: boolean }[]>> = {
  LINE_ITEM: [
    { type: 'DEAL', property: V1_ASSOCIATION_PROPERTIES.DEAL_ID, required: true },
    { type: 'PRODUCT', property: V1_ASSOCIATION_PROPERTIES.PRODUCT_ID, required: true },
  ],
  DEAL: [{ type: 'CONTACT', property: V1_ASSOCIATION_PROPERTIES.CONTACT_IDS, required: false }],
};

/**
 * Where the applied deals now stand for the abandoned-checkout sweep: pending (with the CRM id)
 * when their stage is `checkout_pending`, not pending when they have another stage or were
 * deleted; deals whose mapped state carries no stage are left as they were.
 */
function checkoutStates(group: ChangeGroup, syncs: Map<string, ObjectSync>, records: readonly ProcessedRecord[]): CheckoutState[] {
  const states: CheckoutState[] = [];
  for (const record of records) {
    const change = group.changes.get(record.externalObjectId);
    if (!change) continue;
    const link = record.link ?? syncs.get(record.externalObjectId);
    const crmId = link && !link.archived ? link.crmId : null;
    const stage = change.action === 'DELETE' ? null : change.properties.dealstage;
    if (stage === undefined) continue;
    states.push(stage === PENDING_STAGE && crmId !== null ? { externalObjectId: change.externalObjectId, pending: true, crmId } : { externalObjectId: change.externalObjectId, pending: false });
  }
  return states;
}

/** Revisions are ordered by the object's state revision, then by the settings it was mapped with. */
const isNewer = (change: Pick<MappedChange, 'rev' | 'settingsRev'>, than: { rev: number; settingsRev: number }) =>
  change.rev > than.rev || (change.rev === than.rev && change.settingsRev > than.settingsRev);

/** How a waiting change names an object it waits for. */
const waitingKey = (objectType: ObjectType, externalObjectId: string) => `${objectType}:${externalObjectId}`;

/** Objects a group linked, as `TYPE:externalObjectId`: what waiting changes may be waiting for. */
interface LinkedObjects {
  tenant: Tenant;
  storeId: string;
  keys: string[];
}

const groupKey = (message: MappedChangesMessage) => JSON.stringify([message.tenant.portalId, message.tenant.appId, message.storeId, message.objectType]);

/**
 * Applies mapped object states to the CRM in bulk, then records links, status and errors.
 * Idempotent: a revision already recorded is skipped, creates go through an upsert by the
 * object's sync key (a retried create finds what the first one made), and contacts are matched
 * by e-mail before any create.
 */
export class ApplyMappedChangesUseCase {
  private readonly portalCache = new Map<number, { at: number; portal: Portal | null }>();
  private readonly installCache = new Map<string, number>();

  constructor(
    private readonly repositories: Pick<Repositories, 'objectSyncs' | 'syncErrors' | 'portals' | 'waitingObjects' | 'ecommerceInstalls' | 'checkouts'>,
    private readonly crm: CrmDirectory,
    private readonly logger: Logger,
    private readonly clock: () => number = Date.now,
    /** How long a change waits for the objects it associates with (DESIGN.md: 24 hours). */
    private readonly waitWindowMs = 24 * 60 * 60 * 1000,
  ) {}

  /** Returns the indexes of the messages that failed (to be retried); the others are done. */
  async execute(messages: readonly MappedChangesMessage[]): Promise<Set<number>> {
    const groups = new Map<string, ChangeGroup>();
    messages.forEach((message, index) => {
      const key = groupKey(message);
      const group = groups.get(key) ?? { tenant: message.tenant, storeId: message.storeId, objectType: message.objectType, changes: new Map(), messageIndexes: new Set() };
      group.messageIndexes.add(index);
      for (const change of message.changes) {
        const known = group.changes.get(change.externalObjectId);
        if (!known || isNewer(change, known)) group.changes.set(change.externalObjectId, change);
      }
      groups.set(key, group);
    });
    // Objects others associate with go first: contacts and products, then deals, then line items.
    const ordered = [...groups.values()].sort((a, b) => OBJECT_TYPES.indexOf(a.objectType) - OBJECT_TYPES.indexOf(b.objectType));
    const failed = new Set<number>();
    const linked: LinkedObjects[] = [];
    for (const group of ordered) {
      try {
        linked.push(await this.applyGroup(group));
      } catch (error) {
        this.logger.warn('applying a group of changes failed', { portalId: group.tenant.portalId, objectType: group.objectType, error: String(error) });
        for (const index of group.messageIndexes) failed.add(index);
      }
    }
    await this.releaseWaiting(linked).catch((error) =>
      // The periodic retry (retryWaiting) picks them up.
      this.logger.warn('applying waiting changes failed', { error: String(error) }),
    );
    return failed;
  }

  /** Applies the waiting changes that objects just linked were holding up. */
  private async releaseWaiting(linked: LinkedObjects[]): Promise<void> {
    for (const { tenant, storeId, keys } of linked.filter((entry) => entry.keys.length > 0)) {
      const waiting = await this.repositories.waitingObjects.waitingFor(tenant, storeId, keys, this.clock());
      await this.applyWaiting(waiting);
    }
  }

  /**
   * The periodic retry: applies changes still within their window whose objects may have arrived
   * (covers a crash between linking a deal and releasing what waited for it), forgets expired ones.
   */
  async retryWaiting(limit = 500): Promise<void> {
    const now = this.clock();
    await this.repositories.waitingObjects.expire(now);
    await this.applyWaiting(await this.repositories.waitingObjects.due(now, limit));
  }

  private async applyWaiting(waiting: WaitingObject[]): Promise<void> {
    const groups = new Map<string, ChangeGroup>();
    for (const entry of waiting) {
      const key = JSON.stringify([entry.tenant.portalId, entry.tenant.appId, entry.storeId, entry.objectType]);
      const group = groups.get(key) ?? { tenant: entry.tenant, storeId: entry.storeId, objectType: entry.objectType, changes: new Map(), messageIndexes: new Set() };
      group.changes.set(entry.change.externalObjectId, entry.change);
      groups.set(key, group);
    }
    const linked: LinkedObjects[] = [];
    for (const group of groups.values()) linked.push(await this.applyGroup(group));
    await this.releaseWaiting(linked);
  }

  /**
   * The objects (`TYPE:id`) that changes just stored as waiting wait for and that are linked by
   * now. A group that linked such an object concurrently may have looked for waiting changes
   * before these were stored; looking at the links after storing them means one of the two always
   * sees the other.
   */
  private async arrivedMeanwhile(group: ChangeGroup, waiting: Outcome['waiting']): Promise<string[]> {
    const targets = await this.associationTargets(group, waiting.map(({ change }) => change));
    const arrived = new Set([...targets].flatMap(([type, ids]) => [...ids.keys()].map((id) => waitingKey(type, id))));
    return [...new Set(waiting.flatMap(({ waitingFor }) => waitingFor))].filter((key) => arrived.has(key));
  }

  private async applyGroup(group: ChangeGroup): Promise<LinkedObjects> {
    const { tenant, storeId, objectType } = group;
    const linked: LinkedObjects = { tenant, storeId, keys: [] };
    const ids = [...group.changes.keys()];
    const syncs = await this.repositories.objectSyncs.findMany(tenant, storeId, objectType, ids);
    const fresh = [...group.changes.values()].filter((change) => {
      const sync = syncs.get(change.externalObjectId);
      return isNewer(change, { rev: sync?.appliedRev ?? 0, settingsRev: sync?.appliedSettingsRev ?? 0 });
    });
    const waits = (ASSOCIATIONS[objectType] ?? []).some((association) => association.required);
    if (waits && fresh.length < ids.length) {
      const stale = ids.filter((id) => !fresh.some((change) => change.externalObjectId === id));
      await this.repositories.waitingObjects.release(tenant, storeId, objectType, stale);
    }
    if (fresh.length === 0) return linked;
    const outcome = new Outcome(this.clock());

    const access = await this.access(tenant);
    if ('held' in access) {
      const { held } = access;
      // Not recorded as processed, so that the catch-up applies them.
      for (const change of fresh) {
        outcome.problems(change, [{ type: held.type, blocking: true, details: describeFailure(change.action === 'DELETE' ? 'DELETE' : 'UPSERT', objectType, change.externalObjectId, held.reason) }]);
      }
      await this.repositories.syncErrors.record(tenant, storeId, objectType, outcome.errors);
      return linked;
    }
    const { portal } = access;
    const crm = this.crm.clientFor(portal);

    const upserts: MappedChange[] = [];
    const deletes: MappedChange[] = [];
    for (const change of fresh) {
      const blocking = change.problems.filter((problem) => problem.blocking);
      if (blocking.length > 0) outcome.processed(change, change.problems);
      else if (change.action === 'DELETE') deletes.push(change);
      else upserts.push(change);
    }
    await this.applyDeletes(crm, objectType, deletes, syncs, outcome);
    await this.applyUpserts(crm, portal, group, upserts, syncs, outcome);

    // Errors before status: once an object reads as processed, its errors are already visible.
    await this.repositories.syncErrors.record(tenant, storeId, objectType, outcome.errors);
    await this.repositories.syncErrors.resolve(tenant, storeId, objectType, outcome.clean, this.clock());
    const lost = await this.repositories.objectSyncs.recordProcessed(tenant, storeId, objectType, outcome.records, syncs);
    if (lost.length > 0) this.logger.warn('the same or a newer revision was recorded concurrently', { objectType, externalObjectIds: lost.slice(0, 10) });
    if (objectType === 'DEAL') await this.repositories.checkouts.track(tenant, storeId, checkoutStates(group, syncs, outcome.records), outcome.now);
    if (waits) {
      await this.repositories.waitingObjects.wait(tenant, storeId, objectType, outcome.waiting, outcome.now, this.waitWindowMs);
      await this.repositories.waitingObjects.release(tenant, storeId, objectType, outcome.records.map((record) => record.externalObjectId));
    }
    linked.keys = outcome.records.filter((record) => record.link && !record.link.archived).map((record) => waitingKey(objectType, record.externalObjectId));
    if (outcome.waiting.length > 0) linked.keys.push(...(await this.arrivedMeanwhile(group, outcome.waiting)));
    return linked;
  }

  private async applyDeletes(crm: CrmPort, objectType: ObjectType, deletes: MappedChange[], syncs: Map<string, ObjectSync>, outcome: Outcome) {
    const linked = deletes.filter((change) => {
      const sync = syncs.get(change.externalObjectId);
      return sync?.crmId && !sync.archived;
    });
    if (linked.length > 0) await crm.batchArchive(objectType, linked.map((change) => syncs.get(change.externalObjectId)!.crmId!));
    for (const change of deletes) {
      const sync = syncs.get(change.externalObjectId);
      outcome.processed(change, change.problems, sync?.crmId ? { crmId: sync.crmId, generation: sync.generation, archived: true } : undefined);
    }
  }

  private async applyUpserts(crm: CrmPort, portal: Portal, group: ChangeGroup, upserts: MappedChange[], syncs: Map<string, ObjectSync>, outcome: Outcome) {
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
      for (const { type, property, required } of ASSOCIATIONS[objectType] ?? []) {
        const wanted = change.associations[type] ?? [];
        const found = wanted.map((id) => targets.get(type)?.get(id)).filter((id): id is number => id !== undefined);
        const missing = wanted.filter((id) => !targets.get(type)?.has(id));
        if (required && missing.length > 0) {
          if (crmId === null) waitingFor.push(...missing.map((id) => waitingKey(type, id)));
          problems.push({
            type: 'INVALID_ASSOCIATION_PROPERTY',
            blocking: crmId === null,
            details: describeFailure(crmId === null ? 'CREATE' : 'UPDATE', objectType, change.externalObjectId, `no synced ${type} has this id`, { [property]: missing[0] }),
          });
        }
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
      plans.push({ change, crmId, properties, associations, problems });
    }

    if (objectType === 'CONTACT') await this.linkContactsByEmail(crm, plans);
    const failures = new Map<MappedChange, string>();
    await this.isolated(
      plans.filter((plan) => plan.crmId !== null),
      (chunk) => crm.batchUpdate(objectType, chunk.map((plan) => ({ id: plan.crmId!, properties: plan.properties }))),
      failures,
    );
    await this.isolated(
      plans.filter((plan) => plan.crmId === null),
      async (chunk) => {
        const keyed = chunk.map((plan) => ({ plan, key: syncKeyOf(tenant, storeId, objectType, plan.change.externalObjectId, plan.change.generation) }));
        const results = await crm.batchUpsert(objectType, SYNC_KEY_PROPERTY, keyed.map(({ plan, key }) => ({ id: key, properties: plan.properties })));
        const byKey = new Map(results.map((result) => [result.properties[SYNC_KEY_PROPERTY], result.id]));
        for (const { plan, key } of keyed) plan.crmId = byKey.get(key) ?? null;
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
          { type: 'UNKNOWN_ERROR', blocking: true, details: describeFailure(plan.crmId === null ? 'CREATE' : 'UPDATE', objectType, plan.change.externalObjectId, failure) },
        ]);
      } else {
        outcome.processed(plan.change, plan.problems, { crmId: plan.crmId, generation: plan.change.generation, archived: false });
      }
    }
  }

  /** One search for the whole batch: an unlinked contact whose e-mail the CRM knows is linked to that contact. */
  private async linkContactsByEmail(crm: CrmPort, plans: PlannedWrite[]) {
    const unlinked = plans.filter((plan) => plan.crmId === null && plan.properties.email);
    if (unlinked.length === 0) return;
    const found = await crm.findContactsByEmail(unlinked.map((plan) => plan.properties.email!));
    for (const plan of unlinked) plan.crmId = found.get(plan.properties.email!.toLowerCase()) ?? null;
  }

  /** CRM ids of the objects the upserts associate with, by type and external id (one read per type). */
  private async associationTargets(group: ChangeGroup, upserts: MappedChange[]): Promise<Map<ObjectType, Map<string, number>>> {
    const targets = new Map<ObjectType, Map<string, number>>();
    for (const { type } of ASSOCIATIONS[group.objectType] ?? []) {
      const ids = [...new Set(upserts.flatMap((change) => change.associations[type] ?? []))];
      if (ids.length === 0) continue;
      const syncs = await this.repositories.objectSyncs.findMany(group.tenant, group.storeId, type, ids);
      targets.set(type, new Map([...syncs].filter(([, sync]) => sync.crmId && !sync.archived).map(([id, sync]) => [id, sync.crmId!])));
    }
    return targets;
  }

  private async associate(crm: CrmPort, objectType: ObjectType, written: PlannedWrite[], failures: Map<MappedChange, string>) {
    for (const { type } of ASSOCIATIONS[objectType] ?? []) {
      const withTarget = written.filter((plan) => plan.associations[type]?.length);
      await this.isolated(
        withTarget,
        (chunk) => crm.batchAssociate(objectType, type, chunk.flatMap((plan) => plan.associations[type]!.map((toId) => ({ fromId: plan.crmId!, toId })))),
        failures,
      );
    }
  }

  /**
   * Sends a batch; when the CRM refuses it (a 4xx other than 429), sends the items one by one so
   * that only the faulty ones fail. Retriable failures are thrown: the whole group is retried.
   */
  private async isolated(plans: PlannedWrite[], send: (chunk: PlannedWrite[]) => Promise<unknown>, failures: Map<MappedChange, string>) {
    if (plans.length === 0) return;
    try {
      await send(plans);
    } catch (error) {
      if (!(error instanceof CrmRequestError) || error.retriable) throw error;
      if (plans.length === 1) {
        failures.set(plans[0].change, error.message);
        return;
      }
      for (const plan of plans) await this.isolated([plan], send, failures);
    }
  }

  /** Drops cached portals and installs (a portal was disabled or enabled, a tenant (un)installed: the gateway broadcasts it). */
  forgetPortals(): void {
    this.portalCache.clear();
    this.installCache.clear();
  }

  /**
   * The portal to apply a tenant's changes to, or why they cannot apply now (they are kept, and a
   * catch-up applies them once the portal is enabled or the tenant installed).
   */
  private async access(tenant: Tenant): Promise<{ portal: Portal } | { held: { type: 'INACTIVE_PORTAL' | 'PORTAL_NOT_SYNC_ENABLED'; reason: string } }> {
    const portal = await this.portal(tenant.portalId);
    if (!portal || !portal.active) return { held: { type: 'INACTIVE_PORTAL', reason: `portal ${tenant.portalId} is ${portal ? 'disabled' : 'unknown'}` } };
    if (!(await this.installed(tenant))) {
      const whose = tenant.appId ? `application ${tenant.appId} in portal ${tenant.portalId}` : `portal ${tenant.portalId}`;
      return { held: { type: 'PORTAL_NOT_SYNC_ENABLED', reason: `the ecommerce install of ${whose} is not done (POST /extensions/ecomm/v1/installs, or PUT a v2 store)` } };
    }
    return { portal };
  }

  /** Whether the tenant's ecommerce install is done; like portals, only a positive answer is cached. */
  private async installed(tenant: Tenant): Promise<boolean> {
    const key = `${tenant.portalId}:${tenant.appId ?? ''}`;
    const cached = this.installCache.get(key);
    if (cached !== undefined && this.clock() - cached < 5_000) return true;
    const { installCompleted } = await this.repositories.ecommerceInstalls.find(tenant);
    if (installCompleted) this.installCache.set(key, this.clock());
    else this.installCache.delete(key);
    return installCompleted;
  }

  /**
   * The portal, cached for a few seconds. A cached inactive (or unknown) portal is read again: the
   * changes of a portal being enabled must not be held back by a stale entry.
   */
  private async portal(portalId: number): Promise<Portal | null> {
    const cached = this.portalCache.get(portalId);
    if (cached?.portal?.active && this.clock() - cached.at < 5_000) return cached.portal;
    const portal = await this.repositories.portals.findById(portalId);
    this.portalCache.set(portalId, { at: this.clock(), portal });
    return portal;
  }
}
