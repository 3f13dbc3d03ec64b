import type { Repositories, StoredCrmWait } from '@ecomm-sync/data-access';
import type { Logger } from '@ecomm-sync/runtime';
import type { ApplyMappedChangesUseCase } from './apply-mapped-changes.use-case';
import { crmWaitCauseOf, type CrmWaits } from './crm-waits';

export interface ResumeOptions {
  /** Parked changes applied per round (one read, then CRM batches). */
  pageSize: number;
  /** How long a replica holds a portal it resumes before another may take it over. */
  leaseMs: number;
  /** Portals resumed at once by this replica (each tick starts more up to this many). */
  portalsPerRun: number;
  /**
   * How long a resume waits for a rate limit that ends soon (the account's budget opening its next
   * window, or a short Retry-After) instead of giving the portal back to a wait: a resume holds no
   * message, so waiting costs nothing, and giving up would lose the next window to the backoff.
   */
  patienceMs: number;
}

/** What the resume works with: the applier's use case for pages of parked changes, and the CRM waits it shares. */
export interface ResumeCrmWorkDeps {
  repositories: Pick<Repositories, 'crmWaits' | 'parkedChanges'>;
  apply: Pick<ApplyMappedChangesUseCase, 'applyParked'>;
  /** The same instance the applier's use case checks, so that its calls within a resume are let through. */
  waits: CrmWaits;
  logger: Logger;
  clock?: () => number;
  options?: Partial<ResumeOptions>;
  sleep?: (ms: number) => Promise<void>;
}

const DEFAULTS: ResumeOptions = { pageSize: 500, leaseMs: 60_000, portalsPerRun: 10, patienceMs: 12_000 };

/** Waits in a row without a page applied after which a resume gives the portal back to a wait. */
const MAX_PATIENT_WAITS = 3;

const sleepFor = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Applies the parked changes of portals whose CRM wait ended (docs/decisions/0023). One replica
 * at a time resumes a portal (it takes the wait by compare and set); the others keep parking its
 * new changes meanwhile. The wait ends when nothing is left parked; a rate limit that ends within
 * `patienceMs` is waited out; a CRM that still cannot take the changes starts a new wait, and they
 * stay parked. Portals are resumed side by side, each started when due: one with a long backlog
 * holds up no other.
 */
export class ResumeCrmWorkUseCase {
  private readonly repositories: ResumeCrmWorkDeps['repositories'];
  private readonly apply: ResumeCrmWorkDeps['apply'];
  private readonly waits: CrmWaits;
  private readonly logger: Logger;
  private readonly clock: () => number;
  private readonly options: ResumeOptions;
  private readonly sleep: (ms: number) => Promise<void>;

  constructor({ repositories, apply, waits, logger, clock = Date.now, options = {}, sleep = sleepFor }: ResumeCrmWorkDeps) {
    this.repositories = repositories;
    this.apply = apply;
    this.waits = waits;
    this.logger = logger;
    this.clock = clock;
    this.options = { ...DEFAULTS, ...options };
    this.sleep = sleep;
  }

  /** This replica's resumes under way, by portal. */
  private readonly running = new Map<number, Promise<void>>();

  /** Resumes the portals due now and waits for those resumes (tests; `start` for the periodic run). */
  async run(): Promise<void> {
    await Promise.all(await this.start());
  }

  /**
   * Starts resuming the portals whose wait ended, beside the resumes already under way, and
   * returns once they are started: a portal with a long backlog never holds up another that
   * becomes due meanwhile (the periodic run would skip its ticks while a run lasted). A portal
   * this replica resumes already is left to that resume.
   */
  async start(): Promise<Promise<void>[]> {
    const due = await this.repositories.crmWaits.due(this.clock(), this.options.portalsPerRun + this.running.size);
    const started: Promise<void>[] = [];
    // At most portalsPerRun resumes at once on this replica: a long one takes one of them.
    for (const seen of due.filter((wait) => !this.running.has(wait.portalId)).slice(0, Math.max(0, this.options.portalsPerRun - this.running.size))) {
      const resumed = this.takeAndResume(seen).finally(() => this.running.delete(seen.portalId));
      this.running.set(seen.portalId, resumed);
      started.push(resumed);
    }
    return started;
  }

  /** Resolves once every resume under way has ended (a graceful stop). */
  async settled(): Promise<void> {
    await Promise.all(this.running.values());
  }

  private async takeAndResume(seen: StoredCrmWait): Promise<void> {
    try {
      const taken = await this.repositories.crmWaits.takeForResume(seen, this.clock() + this.options.leaseMs);
      if (taken) await this.waits.resume(taken.portalId, () => this.resume(taken));
    } catch (error) {
      this.logger.warn('resuming parked CRM work failed; tried again when the wait is due', { portalId: seen.portalId, error: String(error) });
    }
  }

  private async resume(taken: StoredCrmWait): Promise<void> {
    const { crmWaits, parkedChanges } = this.repositories;
    let held: StoredCrmWait | null = taken;
    let pages = 0;
    let patientWaits = 0;
    try {
      while (held) {
        const parked = await parkedChanges.take(held.portalId, this.options.pageSize);
        if (parked.length === 0) {
          if (await crmWaits.clear(held)) this.logger.info("the CRM takes changes again; the portal's parked changes are applied", { portalId: held.portalId });
          else await crmWaits.release(held, this.clock()); // parked meanwhile: due again at once
          return;
        }
        try {
          await this.apply.applyParked(parked);
          pages++;
          patientWaits = 0;
        } catch (error) {
          const waitMs = this.waitOutMs(error);
          if (waitMs === null || ++patientWaits > MAX_PATIENT_WAITS) throw error;
          await this.sleep(waitMs);
        }
        held = await crmWaits.takeForResume(held, this.clock() + this.options.leaseMs);
      }
    } catch (error) {
      // A CRM that took pages of this resume is slow or limited again, not down since the first
      // failure: its wait starts anew, so the backoff does not grow across a long resume. Any other
      // failure (a refused token, a bug) backs off the same way, saying what it was: made due at
      // once, the same oldest page failed again every second, holding the portal's whole backlog.
      const cause = crmWaitCauseOf(error) ?? {
        reason: 'unreachable' as const,
        until: null,
        lastAnswer: `resuming the parked changes failed: ${String(error)}`,
      };
      if (!crmWaitCauseOf(error))
        this.logger.warn('resuming parked changes failed; tried again after a backoff', { portalId: taken.portalId, error: String(error) });
      await this.waits.failed(taken.portalId, cause, { retry: true, answeredSince: pages > 0 });
    }
  }

  /** How long to wait out a rate limit that ends within the patience; null for anything else. */
  private waitOutMs(error: unknown): number | null {
    const cause = crmWaitCauseOf(error);
    if (cause?.reason !== 'rate-limited' || cause.until === null) return null;
    const waitMs = Math.max(0, cause.until - this.clock());
    return waitMs <= this.options.patienceMs ? waitMs : null;
  }
}
