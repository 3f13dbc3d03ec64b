import type { MappedChange, ObjectScope, Tenant } from '@ecomm-sync/contracts';
import type { KeptUpTo, WaitingObject, WaitingObjectRepository } from '@ecomm-sync/data-access';
import { isWaitingLive, waitingTransition, type WaitingChangeEvent, type WaitingChangeState } from '@ecomm-sync/domain';
import { copy, type PublicOf } from '../public-of';
import { keptKey } from './kept-changes';

type Row = WaitingObject & { triedAt: number };

const toWaiting = ({ triedAt: _triedAt, ...entry }: Row): WaitingObject => copy(entry);
const stateOf = (row: Row): WaitingChangeState => ({ ...row, revision: { rev: row.change.rev, settingsRev: row.change.settingsRev } });

/** WaitingObjectRepository in memory: every write is libs/domain's waitingTransition on the object's entry. */
export class FakeWaitingObjectRepository implements PublicOf<WaitingObjectRepository> {
  private readonly rows = new Map<string, Row>();

  /** Every waiting change, within its window or not: for the fakes of the console's read models. */
  scan(): WaitingObject[] {
    return [...this.rows.values()].map(toWaiting);
  }

  async wait(
    scope: ObjectScope,
    entries: { change: MappedChange; waitingFor: string[] }[],
    now: number,
    windowMs: number,
    { reapply = false }: { reapply?: boolean } = {},
  ): Promise<void> {
    for (const { change, waitingFor } of entries) {
      const revision = { rev: change.rev, settingsRev: change.settingsRev };
      this.transition(scope, change.externalObjectId, { kind: 'left-waiting', revision, waitingFor, reapply, now, windowMs }, change);
    }
  }

  async release(scope: ObjectScope, processed: readonly KeptUpTo[]): Promise<void> {
    for (const { externalObjectId, rev, settingsRev } of processed)
      this.transition(scope, externalObjectId, { kind: 'processed', revision: { rev, settingsRev } });
  }

  async isWaiting(scope: ObjectScope, externalObjectId: string, now: number): Promise<boolean> {
    const row = this.rows.get(keptKey(scope, externalObjectId));
    return !!row && !row.reapply && row.until > now;
  }

  async waitingFor(tenant: Tenant, storeId: string, keys: readonly string[], now: number): Promise<WaitingObject[]> {
    return [...this.rows.values()]
      .filter((row) => row.tenant.portalId === tenant.portalId && row.tenant.appId === tenant.appId && row.storeId === storeId)
      .filter((row) => isWaitingLive(row, now) && row.waitingFor.some((key) => keys.includes(key)))
      .map(toWaiting);
  }

  async due(now: number, limit: number): Promise<WaitingObject[]> {
    return [...this.rows.values()]
      .filter((row) => isWaitingLive(row, now))
      .sort((a, b) => a.triedAt - b.triedAt)
      .slice(0, limit)
      .map(toWaiting);
  }

  async markTried(entries: readonly WaitingObject[], now: number): Promise<void> {
    for (const entry of entries) this.transition(entry, entry.change.externalObjectId, { kind: 'still-missing', now });
  }

  async expire(now: number): Promise<number> {
    const before = this.rows.size;
    for (const row of [...this.rows.values()]) this.transition(row, row.change.externalObjectId, { kind: 'clock', now });
    return before - this.rows.size;
  }

  /** Applies the machine to one object's entry; `change` is the change a 'left-waiting' event keeps. */
  private transition(scope: ObjectScope, externalObjectId: string, event: WaitingChangeEvent, change?: MappedChange): void {
    const key = keptKey(scope, externalObjectId);
    const row = this.rows.get(key);
    const state = row ? stateOf(row) : null;
    const next = waitingTransition(state, event);
    if (next === state) return;
    if (next === null) {
      this.rows.delete(key);
      return;
    }
    const { revision: _revision, ...fields } = next;
    const kept = next.revision === state?.revision || !change ? row!.change : copy(change);
    this.rows.set(key, { tenant: copy(scope.tenant), storeId: scope.storeId, objectType: scope.objectType, change: kept, ...fields });
  }
}
