import type { CrmWaitRepository, StoredCrmWait } from '@ecomm-sync/data-access';
import type { CrmWait } from '@ecomm-sync/domain';
import { copy, type PublicOf } from '../public-of';

/** CrmWaitRepository in memory: one wait per portal, taken, released and cleared by compare and set. */
export class FakeCrmWaitRepository implements PublicOf<CrmWaitRepository> {
  private readonly waits = new Map<number, StoredCrmWait>();

  async find(portalId: number): Promise<CrmWait | null> {
    const stored = this.waits.get(portalId);
    return stored ? copy(stored.wait) : null;
  }

  async set(portalId: number, wait: CrmWait): Promise<void> {
    this.waits.set(portalId, { portalId, wait: copy(wait), stamp: this.waits.get(portalId)?.stamp ?? null });
  }

  async stamp(portalId: number, wait: CrmWait, stamp: string): Promise<void> {
    const stored = this.waits.get(portalId);
    this.waits.set(portalId, { portalId, wait: copy(stored?.wait ?? wait), stamp });
  }

  async due(now: number, limit: number): Promise<StoredCrmWait[]> {
    return [...this.waits.values()]
      .filter((stored) => stored.wait.until <= now)
      .sort((a, b) => a.wait.until - b.wait.until)
      .slice(0, limit)
      .map(copy);
  }

  async takeForResume(seen: StoredCrmWait, leaseUntil: number): Promise<StoredCrmWait | null> {
    const stored = this.waits.get(seen.portalId);
    if (!stored || stored.wait.until !== seen.wait.until) return null;
    stored.wait.until = leaseUntil;
    return { ...copy(seen), wait: { ...copy(seen.wait), until: leaseUntil } };
  }

  async release(taken: StoredCrmWait, at: number): Promise<void> {
    const stored = this.waits.get(taken.portalId);
    if (stored && stored.wait.until === taken.wait.until) stored.wait.until = at;
  }

  async clear(seen: StoredCrmWait): Promise<boolean> {
    const stored = this.waits.get(seen.portalId);
    if (!stored || stored.wait.until !== seen.wait.until || stored.stamp !== seen.stamp) return false;
    return this.waits.delete(seen.portalId);
  }
}
