import { type MappedChange, OBJECT_TYPES, type ObjectScope, type ObjectType, type Tenant } from '@ecomm-sync/contracts';
import type { CheckoutState, ObjectSync, ProcessedRecord } from '@ecomm-sync/data-access';
import { appliedCheckout, appliedRevisionOf, ASSOCIATIONS, batchedRevision, isRevisionToWrite, keyOf, runBounded } from '@ecomm-sync/domain';
import { CRM_BATCH_LIMIT } from '@ecomm-sync/crm-client';

/** The changes of one scope (tenant, store and object type) that are applied together; the group is passed as that scope. */
export interface ChangeGroup extends ObjectScope {
  /** The newest change per external id. */
  changes: Map<string, MappedChange>;
  /** Ids whose change is written even when the same revision was applied already (a repair, or associations made later). */
  reapply: Set<string>;
  /**
   * Ids from messages delivered before (a redelivery after a crash, or a retry after a failure):
   * an earlier attempt may have written the CRM without recording it, after a newer revision.
   */
  suspect: Set<string>;
  /** Ids whose change comes from a waiting entry (released once a newer revision was applied). */
  fromWaiting: Set<string>;
  /** Indexes of the messages the changes came from (to retry them if the group fails). */
  messageIndexes: Set<number>;
}

/** One key per group; the same for changes from messages and from waiting entries. */
export const groupKeyOf = ({ tenant, storeId, objectType }: ObjectScope): string => keyOf(tenant.portalId, tenant.appId, storeId, objectType);

/** Adds changes to the group of their tenant, store and type, keeping the newest revision of each object. */
export function addToGroups(
  groups: Map<string, ChangeGroup>,
  target: ObjectScope,
  changes: readonly MappedChange[],
  options: { reapply?: boolean; suspect?: boolean; fromWaiting?: boolean; messageIndex?: number } = {},
): void {
  const key = groupKeyOf(target);
  let group = groups.get(key);
  if (!group) {
    group = {
      tenant: target.tenant,
      storeId: target.storeId,
      objectType: target.objectType,
      changes: new Map(),
      reapply: new Set(),
      suspect: new Set(),
      fromWaiting: new Set(),
      messageIndexes: new Set(),
    };
    groups.set(key, group);
  }
  if (options.messageIndex !== undefined) group.messageIndexes.add(options.messageIndex);
  for (const change of changes) {
    const known = group.changes.get(change.externalObjectId);
    const { replaces, reapplies } = batchedRevision(change, known);
    if (replaces) group.changes.set(change.externalObjectId, change);
    if (options.reapply && reapplies) group.reapply.add(change.externalObjectId);
    if (options.suspect) group.suspect.add(change.externalObjectId);
    if (options.fromWaiting) group.fromWaiting.add(change.externalObjectId);
  }
}

/** A group of some of another group's changes (those with these ids), written again. */
export function regroup(group: ChangeGroup, externalObjectIds: readonly string[]): ChangeGroup {
  const changes = new Map(externalObjectIds.flatMap((id) => (group.changes.has(id) ? [[id, group.changes.get(id)!] as const] : [])));
  return { ...group, changes, reapply: new Set(changes.keys()), suspect: new Set(), fromWaiting: new Set(), messageIndexes: new Set() };
}

/** Whether the change is to be applied over what the status says was applied. */
export function isToApply(group: ChangeGroup, change: MappedChange, sync: ObjectSync | undefined): boolean {
  return isRevisionToWrite(change, appliedRevisionOf(sync), group.reapply.has(change.externalObjectId));
}

/** The in-process lock key of an object of the group. */
export const objectLockKey = (group: ChangeGroup, externalObjectId: string): string =>
  keyOf(group.tenant.portalId, group.tenant.appId, group.storeId, group.objectType, externalObjectId);

// The association rule and its keys live in libs/domain (the console's dry run shows the same rule).
export { ASSOCIATIONS, waitingKey } from '@ecomm-sync/domain';

/** Objects a group linked, as `TYPE:externalObjectId`: what waiting changes may be waiting for. */
export interface LinkedObjects {
  tenant: Tenant;
  storeId: string;
  keys: string[];
}

/**
 * Where the applied deals now stand for the abandoned-checkout sweep (libs/domain's
 * checkout-machine): pending (with the CRM id) or not any more. Deals left as they were: those whose
 * mapped state carries no stage or clears it (the CRM keeps its stage), and upserts that were not
 * written (refused: the CRM deal is as it was).
 */
export function checkoutStates(group: ChangeGroup, syncs: Map<string, ObjectSync>, records: readonly ProcessedRecord[]): CheckoutState[] {
  const states: CheckoutState[] = [];
  for (const record of records) {
    const change = group.changes.get(record.externalObjectId);
    if (!change) continue;
    const deleted = change.action === 'DELETE';
    if (!deleted && !record.link) continue;
    const link = record.link ?? syncs.get(record.externalObjectId);
    const crmId = link && !link.archived ? link.crmId : null;
    const verdict = appliedCheckout(deleted ? null : change.properties.dealstage || undefined, crmId);
    if (verdict === 'unchanged') continue;
    states.push(
      verdict === 'pending'
        ? { externalObjectId: change.externalObjectId, pending: true, crmId: crmId! }
        : { externalObjectId: change.externalObjectId, pending: false },
    );
  }
  return states;
}

/** A group's changes in groups of at most `size` (one CRM batch each), each keeping its changes' flags. */
export function chunkGroup(group: ChangeGroup, size: number): ChangeGroup[] {
  const ids = [...group.changes.keys()];
  const chunks: ChangeGroup[] = [];
  for (let i = 0; i < ids.length; i += size) {
    const part = new Set(ids.slice(i, i + size));
    const keep = (flags: Set<string>) => new Set([...flags].filter((id) => part.has(id)));
    chunks.push({
      ...group,
      changes: new Map([...part].map((id) => [id, group.changes.get(id)!])),
      reapply: keep(group.reapply),
      suspect: keep(group.suspect),
      fromWaiting: keep(group.fromWaiting),
      messageIndexes: new Set(group.messageIndexes),
    });
  }
  return chunks;
}

/** Groups by portal: each portal's CRM is its own, so their groups can be applied side by side. */
export function byPortal(groups: Iterable<ChangeGroup>): ChangeGroup[][] {
  const portals = new Map<number, ChangeGroup[]>();
  for (const group of groups) portals.set(group.tenant.portalId, [...(portals.get(group.tenant.portalId) ?? []), group]);
  return [...portals.values()];
}

/** How deep a type sits in the associations: 0 for contacts and products, 1 for deals, 2 for line items. */
function dependencyDepth(objectType: ObjectType): number {
  return Math.max(-1, ...(ASSOCIATIONS[objectType] ?? []).map(({ type }) => dependencyDepth(type))) + 1;
}

/**
 * Groups by how deep their type sits in the associations, shallowest first: the groups of one level
 * associate with none of each other's objects, so they can be applied side by side.
 */
export function byDependencyLevel(groups: Iterable<ChangeGroup>): ChangeGroup[][] {
  const levels: ChangeGroup[][] = [];
  for (const group of inDependencyOrder(groups)) (levels[dependencyDepth(group.objectType)] ??= []).push(group);
  return levels.filter((level) => level.length > 0);
}

/**
 * CRM batches of parked changes applied side by side while a portal resumes: a resume applies a
 * backlog the budget lets through in bursts, and one batch at a time cannot use a burst in full.
 */
const PARKED_BATCHES_AT_ONCE = 4;

/**
 * Runs `applyBatch` for the groups in CRM batches, level by level of the associations, a few batches
 * of a level side by side; contact batches go one after another, since each links by e-mail the
 * contacts the ones before it created (two new contacts of one address are not both created).
 * After a failure no further batch starts; the running ones finish, then it is thrown.
 */
export async function inParkedBatches(groups: Iterable<ChangeGroup>, applyBatch: (group: ChangeGroup) => Promise<void>): Promise<void> {
  for (const level of byDependencyLevel(groups)) {
    const batches = level.flatMap((whole) => chunkGroup(whole, CRM_BATCH_LIMIT));
    const contacts = batches.filter((group) => group.objectType === 'CONTACT');
    const tasks = [
      ...(contacts.length > 0 ? [async () => void (await runBounded(contacts, 1, applyBatch))] : []),
      ...batches.filter((group) => group.objectType !== 'CONTACT').map((group) => () => applyBatch(group)),
    ];
    await runBounded(tasks, PARKED_BATCHES_AT_ONCE, (task) => task());
  }
}

/** Groups in the order objects depend on each other: contacts and products, then deals, then line items. */
export const inDependencyOrder = (groups: Iterable<ChangeGroup>): ChangeGroup[] =>
  [...groups].sort((a, b) => OBJECT_TYPES.indexOf(a.objectType) - OBJECT_TYPES.indexOf(b.objectType));

/** A change's object and revision: what conditional releases of kept changes compare with. */
export const revisionOf = ({ externalObjectId, rev, settingsRev }: Pick<MappedChange, 'externalObjectId' | 'rev' | 'settingsRev'>) => ({
  externalObjectId,
  rev,
  settingsRev,
});
