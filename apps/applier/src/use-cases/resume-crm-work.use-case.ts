import type { Repositories, StoredCrmWait } from '@ecomm-sync/data-access';
import type { Logger } from '@ecomm-sync/logger';
import type { ApplyMappedChangesUseCase } from './apply-mapped-changes.use-case';
import { crmWaitCauseOf } from './crm-waits';

export interface ResumeOptions {
  /** Parked changes applied per round (one read, then CRM batches). */
  pageSize: number;
  /** How long a replica holds a portal it resumes before another may take it over. */
  leaseMs: number;
  /** Portals looked at per run. */
  portalsPerRun: number;
}

const DEFAULTS: ResumeOptions = { pageSize: 500, leaseMs: 60_000, portalsPerRun: 10 };

/**
 * Applies the parked changes of portals whose CRM wait ended (docs/decisions/0023). One replica
 * at a time resumes a portal (it takes the wait by compare and set); the others keep parking its
 * new changes meanwhile. The wait ends when nothing is left parked; a CRM that still cannot take
 * the changes starts a new wait, and they stay parked.
 */
export class ResumeCrmWorkUseCase {
  private readonly options: ResumeOptions;

  constructor(
    private readonly repositories: Pick<Repositories, 'crmWaits' | 'parkedChanges'>,
    private readonly apply: ApplyMappedChangesUseCase,
    private readonly logger: Logger,
    private readonly clock: () => number = Date.now,
    options: Partial<ResumeOptions> = {},
  ) {
    this.options = { ...DEFAULTS, ...options };
  }

  async run(): Promise<void> {
    for (const seen of await this.repositories.crmWaits.due(this.clock(), this.options.portalsPerRun)) {
      const taken = await this.repositories.crmWaits.takeForResume(seen, this.clock() + this.options.leaseMs);
      if (taken) await this.apply.waits.resume(taken.portalId, () => this.resume(taken));
    }
  }

  private async resume(taken: StoredCrmWait): Promise<void> {
    const { crmWaits, parkedChanges } = this.repositories;
    let held: StoredCrmWait | null = taken;
    let pages = 0;
    try {
      while (held) {
        const parked = await parkedChanges.take(held.portalId, this.options.pageSize);
        if (parked.length === 0) {
          if (await crmWaits.clear(held)) this.logger.info("the CRM takes changes again; the portal's parked changes are applied", { portalId: held.portalId });
          else await crmWaits.release(held, this.clock()); // parked meanwhile: due again at once
          return;
        }
        await this.apply.applyParked(parked);
        pages++;
        held = await crmWaits.takeForResume(held, this.clock() + this.options.leaseMs);
      }
    } catch (error) {
      const cause = crmWaitCauseOf(error);
      // A CRM that took pages of this resume is slow or limited again, not down since the first
      // failure: its wait starts anew, so the backoff does not grow across a long resume.
      if (cause) await this.apply.waits.failed(taken.portalId, cause, { retry: true, answeredSince: pages > 0 });
      else {
        this.logger.warn('resuming parked changes failed; tried again at the next run', { portalId: taken.portalId, error: String(error) });
        if (held) await crmWaits.release(held, this.clock());
      }
    }
  }
}
