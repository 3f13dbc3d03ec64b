import { randomUUID } from 'node:crypto';
import type { Tenant } from '@ecomm-sync/contracts';
import {
  alertNoticeId,
  type AlertDestination,
  type AlertDestinationRepository,
  type AlertNotice,
  type AlertNoticeRepository,
  type NewAlertNotice,
  type RequeueWindow,
} from '@ecomm-sync/data-access';
import { copy, type PublicOf } from '../public-of';

const owns = (tenant: Tenant, owned: { portalId: number; appId: string | null }) => owned.portalId === tenant.portalId && owned.appId === tenant.appId;

/** AlertDestinationRepository in memory: by tenant, and the sealed secrets replaced by compare and set. */
export class FakeAlertDestinationRepository implements PublicOf<AlertDestinationRepository> {
  private readonly destinations = new Map<string, AlertDestination>();

  async list(tenant: Tenant): Promise<AlertDestination[]> {
    return [...this.destinations.values()]
      .filter((destination) => owns(tenant, destination))
      .sort((a, b) => a.createdAt - b.createdAt || (a.id < b.id ? -1 : 1))
      .map(copy);
  }

  async find(id: string): Promise<AlertDestination | null> {
    const destination = this.destinations.get(id);
    return destination ? copy(destination) : null;
  }

  async add(
    tenant: Tenant,
    fields: Pick<AlertDestination, 'kind' | 'target' | 'shownTarget' | 'label' | 'sealedSecret'>,
    now: number,
    id: string = randomUUID(),
  ): Promise<AlertDestination> {
    if (this.destinations.has(id)) throw Object.assign(new Error(`E11000 duplicate key error: ${id}`), { code: 11000 });
    const destination: AlertDestination = { id, portalId: tenant.portalId, appId: tenant.appId, ...copy(fields), createdAt: now };
    this.destinations.set(id, destination);
    return copy(destination);
  }

  async remove(tenant: Tenant, id: string): Promise<boolean> {
    const destination = this.destinations.get(id);
    return Boolean(destination && owns(tenant, destination) && this.destinations.delete(id));
  }

  async removeAllOf(tenant: Tenant): Promise<number> {
    const owned = [...this.destinations.values()].filter((destination) => owns(tenant, destination));
    for (const destination of owned) this.destinations.delete(destination.id);
    return owned.length;
  }

  async sealedSecrets(afterId: string, limit: number): Promise<{ id: string; sealed: string }[]> {
    return [...this.destinations.values()]
      .filter((destination) => destination.id > afterId && typeof destination.sealedSecret === 'string')
      .sort((a, b) => (a.id < b.id ? -1 : 1))
      .slice(0, limit)
      .map((destination) => ({ id: destination.id, sealed: destination.sealedSecret! }));
  }

  async replaceSealedSecret(id: string, from: string, to: string): Promise<boolean> {
    const destination = this.destinations.get(id);
    if (!destination || destination.sealedSecret !== from) return false;
    destination.sealedSecret = to;
    return true;
  }

  async urlTargets(afterId: string, limit: number): Promise<{ id: string; kind: AlertDestination['kind']; target: string }[]> {
    return [...this.destinations.values()]
      .filter((destination) => destination.id > afterId && destination.kind !== 'email')
      .sort((a, b) => (a.id < b.id ? -1 : 1))
      .slice(0, limit)
      .map(({ id, kind, target }) => ({ id, kind, target }));
  }

  async replaceTarget(id: string, from: string, to: { target: string; shownTarget: string }): Promise<boolean> {
    const destination = this.destinations.get(id);
    if (!destination || destination.target !== from) return false;
    Object.assign(destination, to);
    return true;
  }
}

/**
 * AlertNoticeRepository in memory: one notice per natural id (stored twice, stored once), taken by
 * compare and set (pending, failed, or a lease that ran out), queued again (pending, or held past
 * its lease) at most once per window (the stamp), as the real one.
 */
export class FakeAlertNoticeRepository implements PublicOf<AlertNoticeRepository> {
  private readonly notices = new Map<string, AlertNotice>();

  async store(notices: readonly NewAlertNotice[]): Promise<string[]> {
    return notices.map((notice) => {
      const id = alertNoticeId(notice.ruleId, notice.seq, notice.destinationId);
      if (!this.notices.has(id))
        this.notices.set(id, { ...copy(notice), id, status: 'pending', leaseUntil: null, attempts: 0, lastError: null, sentAt: null, requeuedAt: null });
      return id;
    });
  }

  async find(id: string): Promise<AlertNotice | null> {
    const notice = this.notices.get(id);
    return notice ? copy(notice) : null;
  }

  async take(id: string, now: number, leaseUntil: number): Promise<AlertNotice | null> {
    const notice = this.notices.get(id);
    const free = notice && (notice.status === 'pending' || notice.status === 'failed' || (notice.status === 'sending' && notice.leaseUntil! < now));
    if (!free) return null;
    Object.assign(notice, { status: 'sending', leaseUntil });
    return copy(notice);
  }

  async recordAttempt(id: string, heldUntil: number, error: string | null): Promise<boolean> {
    const notice = this.held(id, heldUntil);
    if (notice) Object.assign(notice, { attempts: notice.attempts + 1, lastError: error });
    return notice !== undefined;
  }

  async finish(id: string, heldUntil: number, outcome: { sent: true; at: number } | { sent: false; error: string }): Promise<boolean> {
    const notice = this.held(id, heldUntil);
    if (!notice) return false;
    Object.assign(
      notice,
      outcome.sent
        ? { status: 'sent', sentAt: outcome.at, leaseUntil: null, lastError: null }
        : { status: 'failed', leaseUntil: null, lastError: outcome.error },
    );
    return true;
  }

  private held(id: string, heldUntil: number): AlertNotice | undefined {
    const notice = this.notices.get(id);
    return notice?.status === 'sending' && notice.leaseUntil === heldUntil ? notice : undefined;
  }

  async list(tenant: Tenant, limit: number): Promise<AlertNotice[]> {
    return [...this.notices.values()]
      .filter((notice) => owns(tenant, notice))
      .sort((a, b) => b.createdAt - a.createdAt || (a.id < b.id ? 1 : -1))
      .slice(0, limit)
      .map(copy);
  }

  async requeue(now: number, window: RequeueWindow, limit: number): Promise<string[]> {
    const due = [...this.notices.values()]
      .filter(
        (notice) =>
          (notice.status === 'pending' || (notice.status === 'sending' && notice.leaseUntil! < window.leaseEndedBefore)) &&
          notice.createdAt < window.storedBefore &&
          (notice.requeuedAt === null || notice.requeuedAt < window.requeuedBefore),
      )
      .sort((a, b) => a.createdAt - b.createdAt)
      .slice(0, limit);
    for (const notice of due) notice.requeuedAt = now;
    return due.map((notice) => notice.id);
  }
}
