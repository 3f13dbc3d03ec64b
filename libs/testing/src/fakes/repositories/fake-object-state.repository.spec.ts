import { describeObjectStateRepositoryContract } from '../contracts/object-state-repository.contract';
import { FakeObjectStateRepository } from './fake-object-state.repository';

describeObjectStateRepositoryContract('FakeObjectStateRepository', () => new FakeObjectStateRepository());
