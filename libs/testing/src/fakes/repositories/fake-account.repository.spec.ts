import { describeAccountRepositoryContract } from '../contracts/account-repository.contract';
import { FakeAccountRepository } from './fake-account.repository';

describeAccountRepositoryContract('FakeAccountRepository', () => new FakeAccountRepository());
