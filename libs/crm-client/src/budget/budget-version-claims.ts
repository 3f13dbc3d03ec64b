import { randomUUID } from 'node:crypto';
import type { Connection, mongo } from 'mongoose';
import { onlyDuplicateKeyErrors } from '@ecomm-sync/data-access';
import { budgetVersionModel, type BudgetVersionClaim } from './crm-budget.model';

/**
 * The claims of budget versions (`crm_budget_versions`): a writer claims the version it is about to
 * write by an insert on a unique key, atomic on every MongoDB-compatible server (MongoCrmBudgets.write),
 * and a claim a dead writer left is taken over after `staleClaimMs` (decision 20, addendum of
 * 2026-12-04).
 */
export class BudgetVersionClaims {
  private readonly versionModel;
  private readonly versions: mongo.Collection<BudgetVersionClaim>;
  private versionIndexes: Promise<unknown> | null = null;
  /**
   * Per account, the version this replica last failed to claim, the claim's token once seen twice,
   * and since when (this process's monotonic time) it has seen that claim.
   */
  private readonly lostClaims = new Map<string, { version: number; token?: string | null; since: number }>();

  constructor(
    connection: Connection,
    private readonly options: { staleClaimMs: number; monotonic: () => number },
  ) {
    this.versionModel = budgetVersionModel(connection);
    this.versions = this.versionModel.collection as unknown as mongo.Collection<BudgetVersionClaim>;
  }

  /** Claims one version of an account's budget, taking over a dead writer's claim of it; false when a live writer has it. */
  async claim(accountKey: string, version: number): Promise<boolean> {
    return (await this.insert(accountKey, version)) || this.takeOverStale(accountKey, version);
  }

  /**
   * Claims one version of an account's budget; false when another writer claimed it first. Every
   * hundredth version forgets the account's claims a hundred versions older: a writer that old
   * would fail the update's version filter anyway.
   */
  private async insert(accountKey: string, version: number): Promise<boolean> {
    await (this.versionIndexes ??= this.versionModel.createIndexes());
    try {
      await this.versions.insertOne({ _id: `${accountKey}#${version}`, account: accountKey, version, token: randomUUID() });
    } catch (error) {
      if (onlyDuplicateKeyErrors(error)) return false;
      throw error;
    }
    if (version % 100 === 0) void this.versions.deleteMany({ account: accountKey, version: { $lt: version - 100 } }).catch(() => undefined);
    return true;
  }

  /**
   * A version another writer claimed while the budget, read again before every try, stayed at the
   * version before it: after `staleClaimMs` of the same claim (its token), the writer is taken for
   * dead (it claimed, then crashed or lost its connection before its write), its claim is removed
   * by that token, and the version claimed here. Replicas that judge it at once: one removes it,
   * the others find its token gone. Should the writer still be alive, the update's version filter
   * still lets only one of the two write.
   */
  private async takeOverStale(accountKey: string, version: number): Promise<boolean> {
    const _id = `${accountKey}#${version}`;
    const now = this.options.monotonic();
    const lost = this.lostClaims.get(accountKey);
    if (lost?.version !== version) {
      // Lost once: the usual race, whose winner writes next. Its claim is read only if it is lost again.
      this.lostClaims.set(accountKey, { version, since: now });
      return false;
    }
    const claim = await this.versions.findOne({ _id });
    const token = claim ? (claim.token ?? null) : undefined;
    if (token === undefined) return this.insert(accountKey, version); // removed meanwhile
    if (lost.token !== token) {
      this.lostClaims.set(accountKey, { version, token, since: now });
      return false;
    }
    if (now - lost.since < this.options.staleClaimMs) return false;
    this.lostClaims.delete(accountKey);
    const { deletedCount } = await this.versions.deleteOne(token === null ? { _id, token: { $exists: false } } : { _id, token });
    return deletedCount === 1 && this.insert(accountKey, version);
  }
}
