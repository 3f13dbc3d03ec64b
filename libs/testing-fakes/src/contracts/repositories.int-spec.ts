import { describeImportRepositoryContract } from './import-repository.contract';
import { realDatabase } from './real-database';

/** The contracts the fakes pass (their *.spec.ts), against the real repositories on the MongoDB-wire server. */
describe('real repositories on the MongoDB-wire server', () => {
  const database = realDatabase('repositories');
  describeImportRepositoryContract('ImportRepository', () => database().repositories.imports);
});
