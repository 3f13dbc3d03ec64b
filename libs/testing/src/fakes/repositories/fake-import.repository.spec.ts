import { describeImportReleaseContract } from '../contracts/import-release.contract';
import { describeImportRepositoryContract } from '../contracts/import-repository.contract';
import { FakeImportRepository } from './fake-import.repository';

describeImportRepositoryContract('FakeImportRepository', () => new FakeImportRepository());
describeImportReleaseContract('FakeImportRepository', () => new FakeImportRepository());
