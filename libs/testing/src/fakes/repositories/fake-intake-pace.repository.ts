import type { IntakePaceRepository } from '@ecomm-sync/data-access';
import { type IntakeLimits, type IntakeTake, returnIntake, takeIntake } from '@ecomm-sync/domain';
import type { PublicOf } from '../public-of';

/** IntakePaceRepository in memory: each portal's `due`, taken and given back by the rule itself. */
export class FakeIntakePaceRepository implements PublicOf<IntakePaceRepository> {
  private readonly paces = new Map<number, number>();

  async take(portalId: number, costMs: number, now: number, limits: IntakeLimits): Promise<IntakeTake> {
    const take = takeIntake(this.paces.get(portalId), costMs, now, limits);
    if (take.taken) this.paces.set(portalId, take.due);
    return take;
  }

  async giveBack(portalId: number, costMs: number, now: number): Promise<void> {
    const due = this.paces.get(portalId);
    if (due !== undefined) this.paces.set(portalId, returnIntake(due, costMs, now));
  }

  async sendingSince(since: number, limit: number): Promise<number[]> {
    return [...this.paces]
      .filter(([, due]) => due > since)
      .slice(0, limit)
      .map(([portalId]) => portalId);
  }

  async find(portalId: number): Promise<number | null> {
    return this.paces.get(portalId) ?? null;
  }
}
