import { describeParkedChangeRepositoryContract } from '../contracts/parked-change-repository.contract';
import { FakeParkedChangeRepository } from './fake-parked-change.repository';

describeParkedChangeRepositoryContract('FakeParkedChangeRepository', () => new FakeParkedChangeRepository());
