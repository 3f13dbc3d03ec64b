import { settingsOwner, type ReapplyJobRepository } from '@ecomm-sync/data-access';
import { anAppTenant } from '../builders';
import type { PublicOf } from '../public-of';

type Jobs = PublicOf<ReapplyJobRepository>;

/** What the use cases rely on from ReapplyJobRepository; run against the fake and the real one. */
export function describeReapplyJobRepositoryContract(name: string, make: () => Jobs | Promise<Jobs>): void {
  describe(`ReapplyJobRepository contract: ${name}`, () => {
    let jobs: Jobs;
    let owner: string;
    beforeEach(async () => {
      jobs = await make();
      owner = settingsOwner(anAppTenant());
    });

    it('when a job starts, then it runs from the first type, and starting it again hands back the same job', async () => {
      const job = await jobs.start(owner, 3, ['CONTACT', 'DEAL'], 100);
      expect(job).toEqual({
        jobId: expect.stringMatching(/^[0-9a-f]{24}$/),
        owner,
        settingsRev: 3,
        objectTypes: ['CONTACT', 'DEAL'],
        status: 'running',
        typeIndex: 0,
        lastId: null,
        objectsProcessed: 0,
        startedAt: 100,
        updatedAt: 100,
        finishedAt: null,
      });
      expect(await jobs.start(owner, 3, ['CONTACT', 'DEAL'], 200)).toEqual(job);
      expect(await jobs.find(job.jobId)).toEqual(job);
      expect(await jobs.find('nope')).toBeNull();
    });

    it('when a job of a newer revision starts, then the older running one is superseded and the newer is the latest', async () => {
      const older = await jobs.start(owner, 1, ['CONTACT'], 100);
      const newer = await jobs.start(owner, 2, ['DEAL'], 200);
      expect(await jobs.find(older.jobId)).toMatchObject({ status: 'superseded', finishedAt: 200 });
      expect(await jobs.latest(owner)).toEqual(newer);
      expect(await jobs.latest(settingsOwner(anAppTenant()))).toBeNull();
    });

    it('when a job of a newer revision starts, then it takes over the types the older running one had not finished, in the order of object types', async () => {
      const older = await jobs.start(owner, 1, ['CONTACT', 'DEAL', 'LINE_ITEM'], 100);
      await jobs.advance(older.jobId, { typeIndex: 1, lastId: 'k-7', processedDelta: 7 }, 110); // CONTACT done, DEAL begun
      const done = await jobs.start(owner, 0, ['PRODUCT'], 100);
      await jobs.finish(done.jobId, 'completed', 120); // a finished job leaves nothing

      expect((await jobs.start(owner, 2, ['PRODUCT'], 200)).objectTypes).toEqual(['DEAL', 'PRODUCT', 'LINE_ITEM']);
      expect((await jobs.start(owner, 2, ['CONTACT'], 300)).objectTypes).toEqual(['DEAL', 'PRODUCT', 'LINE_ITEM']); // delivered again: the same job
    });

    it('when a job starts for a revision older than a running one, then it runs and the newer one stays running', async () => {
      const newer = await jobs.start(owner, 5, ['CONTACT'], 100);
      await jobs.start(owner, 4, ['CONTACT'], 200);
      expect((await jobs.find(newer.jobId))!.status).toBe('running');
      expect((await jobs.latest(owner))!.settingsRev).toBe(5);
    });

    it('when the start of a job is delivered again after an older revision started late, then the older one runs on: nothing it holds is dropped', async () => {
      await jobs.start(owner, 3, ['CONTACT'], 100);
      const late = await jobs.start(owner, 2, ['DEAL'], 200); // an older revision's event delivered late: it runs

      await jobs.start(owner, 3, ['CONTACT'], 300);

      expect(await jobs.find(late.jobId)).toMatchObject({ status: 'running', objectTypes: ['DEAL'] });
    });

    it('when a running job advances, then its resume point moves and its count grows; a finished job does not move', async () => {
      const job = await jobs.start(owner, 1, ['CONTACT', 'DEAL'], 100);
      expect(await jobs.advance(job.jobId, { typeIndex: 0, lastId: 'k-1', processedDelta: 10 }, 110)).toBe(true);
      expect(await jobs.advance(job.jobId, { typeIndex: 1, lastId: null, processedDelta: 5 }, 120)).toBe(true);
      expect(await jobs.find(job.jobId)).toMatchObject({ typeIndex: 1, lastId: null, objectsProcessed: 15, updatedAt: 120 });
      await jobs.finish(job.jobId, 'completed', 130);
      expect(await jobs.advance(job.jobId, { typeIndex: 2, lastId: null, processedDelta: 1 }, 140)).toBe(false);
      await jobs.finish(job.jobId, 'superseded', 150);
      expect(await jobs.find(job.jobId)).toMatchObject({ status: 'completed', typeIndex: 1, objectsProcessed: 15, finishedAt: 130 });
    });
  });
}
