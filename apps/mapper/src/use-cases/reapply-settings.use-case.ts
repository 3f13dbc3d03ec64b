import { type ReapplyChunkMessage, type SettingsChangedMessage, TOPICS } from '@ecomm-sync/contracts';
import { ownerDataFilter, type ReapplyJob, type Repositories } from '@ecomm-sync/data-access';
import type { Logger } from '@ecomm-sync/runtime';
import type { Broker } from '@ecomm-sync/messaging';
import { ofLiveStores } from './live-stores';
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
 * Re-maps the stored raw state of every object a settings change touches, with the newest settings,
 * and publishes what it maps to, page by page (leaving out objects of stores deleted since). Progress (the last object id) is stored after each page: a crash resumes
 * there, and a page done twice only republishes revisions the applier skips.
 */
export class ReapplySettingsUseCase {
  constructor(
    private readonly repositories: Pick<Repositories, 'settings' | 'objectStates' | 'reapplyJobs' | 'stores'>,
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
    if (!settings?.enabled) {
      // Deleted or paused: nothing applies (enabling them again re-applies everything).
      await this.repositories.reapplyJobs.finish(jobId, 'superseded', this.clock());
      return;
    }
    // Settings newer than the job's map its objects as they are now. A newer revision that re-maps
    // types of its own started its own job, which superseded this one (advance answers false) and
    // took over what it had not finished; one that re-maps nothing (an import address, the same
    // mappings again) leaves this job to finish.
    const filter = ownerDataFilter(job.owner);
    /** Records progress; false when the job was superseded meanwhile. */
    const advance = async (next: { typeIndex: number; lastId: string | null }, processed: number) => {
      if (!(await this.repositories.reapplyJobs.advance(jobId, { ...next, processedDelta: processed }, this.clock()))) return false;
      job = { ...job, ...next, objectsProcessed: job.objectsProcessed + processed };
      return true;
    };
    let pagesLeft = this.options.pagesPerChunk;
    while (pagesLeft > 0) {
      if (job.typeIndex >= job.objectTypes.length) {
        await this.repositories.reapplyJobs.finish(jobId, 'completed', this.clock());
        this.logger.info('re-apply completed', { owner: job.owner, settingsRev: job.settingsRev, objectsProcessed: job.objectsProcessed });
        return;
      }
      const objectType = job.objectTypes[job.typeIndex];
      let typeDone = true;
      for await (const states of this.repositories.objectStates.pagesForOwner(filter, objectType, job.lastId, this.options.pageSize)) {
        // Objects of stores deleted since are not sent again (they are still counted as gone through).
        await publishMappedStates(this.broker, objectType, await ofLiveStores(this.repositories.stores, states), settings, this.options.changesPerMessage);
        if (!(await advance({ typeIndex: job.typeIndex, lastId: states[states.length - 1].id }, states.length))) return;
        if (--pagesLeft === 0) {
          typeDone = false; // the next chunk goes on from the last id (and moves on if nothing is left)
          break;
        }
      }
      if (typeDone && !(await advance({ typeIndex: job.typeIndex + 1, lastId: null }, 0))) return;
    }
    await this.broker.publish(TOPICS.reapplyChunk, { kind: 'reapply-chunk', jobId } satisfies ReapplyChunkMessage);
  }
}
