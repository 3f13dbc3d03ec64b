import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import { CrmRequestError } from '@ecomm-sync/crm-client';
import type { Repositories } from '@ecomm-sync/data-access';
import type { Logger } from '@ecomm-sync/runtime';
import { type CrmWait, type CrmWaitCause, type CrmWaitReason, isWaiting, nextCrmWait, TtlCache } from '@ecomm-sync/domain';
import type { ChangeGroup } from './change-group';

/** How long a replica reuses what it read of a portal's wait (every replica sees a new wait within this time). */
const CACHE_MS = 1_000;

/** Thrown instead of sending a request to a portal's CRM while its work waits. */
export class CrmWaiting extends Error {
  constructor(
    readonly portalId: number,
    readonly wait: CrmWait,
  ) {
    super(`the CRM work of portal ${portalId} waits (${wait.reason}) until ${new Date(wait.until).toISOString()}`);
    this.name = 'CrmWaiting';
  }
}

const REASONS: readonly CrmWaitReason[] = ['rate-limited', 'daily-cap', 'unreachable', 'unauthorized'];

/**
 * Whether an error means "the CRM cannot take this now" (work waits) rather than "this input is
 * wrong" (an error record): a rate limit, the daily cap, no answer, a timeout or a 5xx, as the
 * client raises them after its own short retries, or credentials the CRM refuses (401, 403): no
 * object is at fault, and each would be refused alike. Null for anything else.
 */
export function crmWaitCauseOf(error: unknown): CrmWaitCause | null {
  if (error instanceof CrmWaiting) return { reason: error.wait.reason, until: error.wait.until, lastAnswer: error.wait.lastAnswer };
  const named = error as { reason?: unknown; until?: unknown; lastAnswer?: unknown; message?: unknown };
  if (typeof named.reason === 'string' && (REASONS as readonly string[]).includes(named.reason)) {
    return {
      reason: named.reason as CrmWaitReason,
      until: typeof named.until === 'number' ? named.until : null,
      lastAnswer: typeof named.lastAnswer === 'string' ? named.lastAnswer : String(named.message ?? error),
    };
  }
  if (error instanceof CrmRequestError && error.refusesCredentials) return { reason: 'unauthorized', until: null, lastAnswer: error.message };
  if (error instanceof CrmRequestError && error.retriable) {
    return { reason: error.status === 429 ? 'rate-limited' : 'unreachable', until: null, lastAnswer: error.message };
  }
  return null;
}

/**
 * The portals whose CRM work waits (docs/decisions/0023-waiting-is-not-failing.md): their changes
 * are parked in MongoDB, acknowledged, and applied when the wait ends; nothing waits in a queue
 * (no portal holds up another) and nothing counts toward a message's attempts.
 */
export class CrmWaits {
  private readonly cache: TtlCache<CrmWait | null>;
  /**
   * The portal a resume runs for, in the resume's own calls only: the resume holds the portal's
   * wait and writes its CRM, while changes this replica consumes meanwhile still see the wait and
   * are parked (they would compete with the resume for the account's budget, and their failure
   * would replace the wait the resume holds).
   */
  private readonly resumeScope = new AsyncLocalStorage<number>();

  constructor(
    private readonly repositories: Pick<Repositories, 'crmWaits' | 'parkedChanges'>,
    private readonly clock: () => number,
  ) {
    this.cache = new TtlCache(CACHE_MS, 10_000, clock);
  }

  /** Throws CrmWaiting while the portal's work waits (no request is sent meanwhile). */
  async check(portalId: number): Promise<void> {
    if (this.resumeScope.getStore() === portalId) return;
    const wait = await this.current(portalId);
    if (wait && isWaiting(wait, this.clock())) throw new CrmWaiting(portalId, wait);
  }

  /**
   * Records a failure of the portal's CRM: the wait it starts or prolongs. `retry`: the failure of
   * a resume (one more try, always); `answeredSince`: the CRM took work since the stored wait
   * began (the resume applied a page), so this failure starts a new wait, its backoff from the
   * first step, instead of doubling the old one's.
   */
  async failed(
    portalId: number,
    cause: CrmWaitCause,
    { retry = false, answeredSince = false }: { retry?: boolean; answeredSince?: boolean } = {},
  ): Promise<CrmWait> {
    const previous = answeredSince ? null : await this.repositories.crmWaits.find(portalId);
    const wait = nextCrmWait(previous, cause, this.clock(), undefined, { retry });
    await this.repositories.crmWaits.set(portalId, wait);
    this.cache.set(String(portalId), wait);
    return wait;
  }

  /**
   * Keeps a group's changes until the portal's wait ends. Parking stamps the wait with a token of
   * its own, so that a resume that found nothing parked cannot end a wait a change was parked
   * under meanwhile (it ends the wait only while the stamp it read is unchanged).
   */
  async park(group: ChangeGroup, wait: CrmWait): Promise<void> {
    const changes = [...group.changes.values()].map((change) => ({ change, reapply: group.reapply.has(change.externalObjectId) }));
    await this.repositories.parkedChanges.park(group, changes, this.clock());
    await this.repositories.crmWaits.stamp(group.tenant.portalId, wait, randomUUID());
  }

  /**
   * A group the portal's CRM cannot take now (rate limit, daily cap, no answer) is parked until the
   * portal's wait ends, and its messages are done: waiting is not failing. False for other errors,
   * and when parking fails (the messages are then retried).
   */
  async parkFor(group: ChangeGroup, error: unknown, logger: Logger): Promise<boolean> {
    const cause = crmWaitCauseOf(error);
    if (!cause) return false;
    const portalId = group.tenant.portalId;
    try {
      // A wait read from the cache may have ended meanwhile (a resume cleared it): the stamp then
      // makes it again, and as the cache had it, a resume's lease, the portal would park a minute
      // against a CRM that takes changes. Made again, it is due at once.
      const wait = error instanceof CrmWaiting ? { ...error.wait, until: Math.min(error.wait.until, this.clock()) } : await this.failed(portalId, cause);
      await this.park(group, wait);
      if (!(error instanceof CrmWaiting))
        logger.warn('the CRM cannot take changes now; parked until it can', {
          portalId,
          reason: wait.reason,
          until: wait.until,
          lastAnswer: wait.lastAnswer,
        });
      return true;
    } catch (parkError) {
      logger.warn('parking changes failed; their messages are retried', { portalId, error: String(parkError) });
      return false;
    }
  }

  /** Runs a resume of the portal's parked changes: its own calls write the portal's CRM, and afterwards the wait is read anew. */
  async resume<T>(portalId: number, work: () => Promise<T>): Promise<T> {
    try {
      return await this.resumeScope.run(portalId, work);
    } finally {
      this.cache.delete(String(portalId));
    }
  }

  private current(portalId: number): Promise<CrmWait | null> {
    return this.cache.get(String(portalId), () => this.repositories.crmWaits.find(portalId));
  }
}
