import type { ReapplyChunkMessage, SettingsChangedMessage } from '@ecomm-sync/contracts';
import { TOPICS } from '@ecomm-sync/contracts';
import { ownerDataFilter, type ReapplyJob, type Repositories } from '@ecomm-sync/data-access';
import type { Logger } from '@ecomm-sync/logger';
import type { Broker } from '@ecomm-sync/messaging';
import { publishMappedStates } from './publish-mapped-states';

export interface ReapplyOptions {
  /** Objects read, mapped and published at a time: what bounds memory. */
  pageSize: number;
  /** Pages per message; then the job continues in a new message, so no delivery runs long. */
  pagesPerChunk: number;
  /** Mapped changes per published message. */
  changesPerMessage: number;
}

/**
 * Re-maps the stored raw state of every object a settings change touches and publishes what it
 * maps to, page by page. Progress (the last object id) is stored after each page: a crash resumes
 * there, and a page done twice only republishes revisions the applier skips.
 */
export class ReapplySettingsUseCase {
  constructor(
    private readonly repositories: Pick<Repositories, 'settings' | 'objectStates' | 'reapplyJobs'>,
    private readonly broker: Pick<Broker, 'publish'>,
    private readonly logger: Logger,
    private readonly options: ReapplyOptions,
    private readonly clock: () => number = Date.now,
  ) {}

  async start(event: SettingsChangedMessage): Promise<void> {
    const job = await this.repositories.reapplyJobs.start(event.owner, event.settingsRev, event.objectTypes, this.clock());
    this.logger.info('re-apply started', { owner: event.owner, settingsRev: event.settingsRev, objectTypes: event.objectTypes });
    if (job.status === 'running') await this.continue({ kind: 'reapply-chunk', jobId: job.jobId });
  }

  async continue({ jobId }: ReapplyChunkMessage): Promise<void> {
    const found = await this.repositories.reapplyJobs.find(jobId);
    if (!found || found.status !== 'running') return;
    let job: ReapplyJob = found;
    const settings = await this.repositories.settings.getByOwner(job.owner);
    if (!settings || settings.rev !== job.settingsRev) {
      // Newer settings (their own job re-maps everything they touch) or deleted settings.
      await this.repositories.reapplyJobs.finish(jobId, 'superseded', this.clock());
      return;
    }
    const filter = ownerDataFilter(job.owner);
    for (let page = 0; page < this.options.pagesPerChunk; page++) {
      if (job.typeIndex >= job.objectTypes.length) {
        await this.repositories.reapplyJobs.finish(jobId, 'completed', this.clock());
        this.logger.info('re-apply completed', { owner: job.owner, settingsRev: job.settingsRev, objectsProcessed: job.objectsProcessed });
        return;
      }
      const objectType = job.objectTypes[job.typeIndex];
      const states = await this.repositories.objectStates.pageForOwner(filter, objectType, job.lastId, this.options.pageSize);
      await publishMappedStates(this.broker, objectType, states, settings, this.options.changesPerMessage);
      const next: { typeIndex: number; lastId: string | null } = states.length < this.options.pageSize
        ? { typeIndex: job.typeIndex + 1, lastId: null }
        : { typeIndex: job.typeIndex, lastId: states[states.length - 1].id };
      if (!(await this.repositories.reapplyJobs.advance(jobId, { ...next, processedDelta: states.length }, this.clock()))) return; // superseded meanwhile
      job = { ...job, ...next, objectsProcessed: job.objectsProcessed + states.length };
    }
    await this.broker.publish(TOPICS.reapplyChunk, { kind: 'reapply-chunk', jobId } satisfies ReapplyChunkMessage);
  }
}
