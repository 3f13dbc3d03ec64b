import { Types, type Connection } from 'mongoose';
import type { ObjectType } from '@ecomm-sync/contracts';
import { typesToReapply } from '@ecomm-sync/domain';
import { reapplyJobModel } from '../models/reapply-job.model';
import { onlyDuplicateKeyErrors } from '../duplicate-key';

export interface ReapplyJob {
  jobId: string;
  owner: string;
  settingsRev: number;
  objectTypes: ObjectType[];
  status: 'running' | 'completed' | 'superseded';
  typeIndex: number;
  lastId: string | null;
  objectsProcessed: number;
  startedAt: number;
  updatedAt: number;
  finishedAt: number | null;
}

interface JobDoc extends Omit<ReapplyJob, 'jobId' | 'lastId'> {
  _id: Types.ObjectId;
  lastId: string | null;
}

const toJob = (doc: JobDoc): ReapplyJob => ({
  jobId: String(doc._id),
  owner: doc.owner,
  settingsRev: doc.settingsRev,
  objectTypes: doc.objectTypes,
  status: doc.status,
  typeIndex: doc.typeIndex,
  lastId: doc.lastId ?? null,
  objectsProcessed: doc.objectsProcessed,
  startedAt: doc.startedAt,
  updatedAt: doc.updatedAt,
  finishedAt: doc.finishedAt ?? null,
});

export class ReapplyJobRepository {
  private readonly jobs;

  constructor(connection: Connection) {
    this.jobs = reapplyJobModel(connection);
  }

  /**
   * The job of this settings revision, created once however often the event is delivered. Older
   * running jobs of the owner are superseded (the newest settings are the ones to apply): the new
   * job takes over the object types they had not finished, so that a change of one type's mappings
   * does not leave another type half re-mapped by the job it stopped.
   */
  async start(owner: string, settingsRev: number, objectTypes: ObjectType[], now: number): Promise<ReapplyJob> {
    const older = (await this.jobs.collection
      .find({ owner, settingsRev: { $lt: settingsRev }, status: 'running' }, { projection: { objectTypes: 1, typeIndex: 1 } })
      .toArray()) as unknown as Pick<JobDoc, '_id' | 'objectTypes' | 'typeIndex'>[];
    let created = true;
    try {
      await this.jobs.collection.insertOne({
        owner,
        settingsRev,
        objectTypes: typesToReapply(objectTypes, older),
        status: 'running',
        typeIndex: 0,
        lastId: null,
        objectsProcessed: 0,
        startedAt: now,
        updatedAt: now,
        finishedAt: null,
      });
    } catch (error) {
      if (!onlyDuplicateKeyErrors(error)) throw error;
      created = false;
    }
    // Only the jobs whose types this one took over: one that started meanwhile (another replica's,
    // or an older revision's delivered late) runs on; an event delivered again supersedes nothing.
    if (created && older.length > 0) {
      await this.jobs.collection.updateMany(
        { _id: { $in: older.map((job) => job._id) }, status: 'running' },
        { $set: { status: 'superseded', updatedAt: now, finishedAt: now } },
      );
    }
    return toJob((await this.jobs.collection.findOne({ owner, settingsRev })) as unknown as JobDoc);
  }

  async find(jobId: string): Promise<ReapplyJob | null> {
    if (!Types.ObjectId.isValid(jobId)) return null;
    const doc = await this.jobs.collection.findOne({ _id: new Types.ObjectId(jobId) });
    return doc ? toJob(doc as unknown as JobDoc) : null;
  }

  async latest(owner: string): Promise<ReapplyJob | null> {
    const doc = await this.jobs.collection.find({ owner }).sort({ settingsRev: -1 }).limit(1).next();
    return doc ? toJob(doc as unknown as JobDoc) : null;
  }

  /** Moves the resume point forward; only a running job moves (returns false when it was superseded). */
  async advance(jobId: string, progress: { typeIndex: number; lastId: string | null; processedDelta: number }, now: number): Promise<boolean> {
    const result = await this.jobs.collection.updateOne(
      { _id: new Types.ObjectId(jobId), status: 'running' },
      {
        $set: { typeIndex: progress.typeIndex, lastId: progress.lastId, updatedAt: now },
        $inc: { objectsProcessed: progress.processedDelta },
      },
    );
    return result.matchedCount === 1;
  }

  async finish(jobId: string, status: 'completed' | 'superseded', now: number): Promise<void> {
    await this.jobs.collection.updateOne({ _id: new Types.ObjectId(jobId), status: 'running' }, { $set: { status, updatedAt: now, finishedAt: now } });
  }
}
