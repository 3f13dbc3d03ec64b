import { describeStoreRepositoryContract } from '../contracts/store-repository.contract';
import { FakeStoreRepository } from './fake-store.repository';

describeStoreRepositoryContract('FakeStoreRepository', () => new FakeStoreRepository());
