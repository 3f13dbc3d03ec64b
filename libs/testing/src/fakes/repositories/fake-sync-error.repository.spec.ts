import { describeSyncErrorRepositoryContract } from '../contracts/sync-error-repository.contract';
import { FakeSyncErrorRepository } from './fake-sync-error.repository';

describeSyncErrorRepositoryContract('FakeSyncErrorRepository', () => new FakeSyncErrorRepository());
