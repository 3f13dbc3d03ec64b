import type { ObjectType } from '@ecomm-sync/contracts';
import type { ReapplyJob, ReapplyJobRepository } from '@ecomm-sync/data-access';
import { typesToReapply } from '@ecomm-sync/domain';
import { isObjectId, newObjectId } from '../object-ids';
import { copy, type PublicOf } from '../public-of';

/** ReapplyJobRepository in memory: one job per owner and settings revision; a newer one supersedes older running ones. */
export class FakeReapplyJobRepository implements PublicOf<ReapplyJobRepository> {
  private readonly jobs = new Map<string, ReapplyJob>();

  async start(owner: string, settingsRev: number, objectTypes: ObjectType[], now: number): Promise<ReapplyJob> {
    if (!this.of(owner).some((job) => job.settingsRev === settingsRev)) {
      const superseded = this.of(owner).filter((job) => job.settingsRev < settingsRev && job.status === 'running');
      for (const job of superseded) Object.assign(job, { status: 'superseded', updatedAt: now, finishedAt: now });
      const jobId = newObjectId();
      this.jobs.set(jobId, {
        jobId,
        owner,
        settingsRev,
        objectTypes: typesToReapply(objectTypes, superseded),
        status: 'running',
        typeIndex: 0,
        lastId: null,
        objectsProcessed: 0,
        startedAt: now,
        updatedAt: now,
        finishedAt: null,
      });
    }
    return copy(this.of(owner).find((job) => job.settingsRev === settingsRev)!);
  }

  async find(jobId: string): Promise<ReapplyJob | null> {
    const found = isObjectId(jobId) ? this.jobs.get(jobId) : undefined;
    return found ? copy(found) : null;
  }

  async latest(owner: string): Promise<ReapplyJob | null> {
    const [newest] = this.of(owner).sort((a, b) => b.settingsRev - a.settingsRev);
    return newest ? copy(newest) : null;
  }

  async advance(jobId: string, progress: { typeIndex: number; lastId: string | null; processedDelta: number }, now: number): Promise<boolean> {
    const job = this.jobs.get(jobId);
    if (job?.status !== 'running') return false;
    Object.assign(job, {
      typeIndex: progress.typeIndex,
      lastId: progress.lastId,
      updatedAt: now,
      objectsProcessed: job.objectsProcessed + progress.processedDelta,
    });
    return true;
  }

  async finish(jobId: string, status: 'completed' | 'superseded', now: number): Promise<void> {
    const job = this.jobs.get(jobId);
    if (job?.status === 'running') Object.assign(job, { status, updatedAt: now, finishedAt: now });
  }

  private of(owner: string): ReapplyJob[] {
    return [...this.jobs.values()].filter((job) => job.owner === owner);
  }
}
