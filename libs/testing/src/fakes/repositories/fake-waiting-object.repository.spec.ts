import { describeWaitingObjectRepositoryContract } from '../contracts/waiting-object-repository.contract';
import { FakeWaitingObjectRepository } from './fake-waiting-object.repository';

describeWaitingObjectRepositoryContract('FakeWaitingObjectRepository', () => new FakeWaitingObjectRepository());
