import { describeCredentialRepositoryContract } from '../contracts/credential-repository.contract';
import { FakeCredentialRepository } from './fake-credential.repository';

describeCredentialRepositoryContract('FakeCredentialRepository', () => new FakeCredentialRepository());
