import { describeIntakePaceRepositoryContract } from '../contracts/intake-pace-repository.contract';
import { FakeIntakePaceRepository } from './fake-intake-pace.repository';

describeIntakePaceRepositoryContract('FakeIntakePaceRepository', () => new FakeIntakePaceRepository());
