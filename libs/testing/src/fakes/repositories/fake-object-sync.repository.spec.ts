import { describeObjectSyncRepositoryContract } from '../contracts/object-sync-repository.contract';
import { FakeObjectSyncRepository } from './fake-object-sync.repository';

describeObjectSyncRepositoryContract('FakeObjectSyncRepository', () => new FakeObjectSyncRepository());
