import { describeImportRepositoryContract } from '../contracts/import-repository.contract';
import { FakeImportRepository } from './fake-import.repository';

describeImportRepositoryContract('FakeImportRepository', () => new FakeImportRepository());
