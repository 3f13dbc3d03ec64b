import { describeRawMessageRepositoryContract } from '../contracts/raw-message-repository.contract';
import { FakeRawMessageRepository } from './fake-raw-message.repository';

describeRawMessageRepositoryContract('FakeRawMessageRepository', () => new FakeRawMessageRepository());
