import { describeReapplyJobRepositoryContract } from '../contracts/reapply-job-repository.contract';
import { FakeReapplyJobRepository } from './fake-reapply-job.repository';

describeReapplyJobRepositoryContract('FakeReapplyJobRepository', () => new FakeReapplyJobRepository());
