import { connectDatabase, type Database } from '@ecomm-sync/data-access';
import { testInfrastructure, uniqueName } from '../../support';

/**
 * One database on the run's MongoDB-wire server for a contract suite against the real
 * repositories (integration tier only): opened before the suite, dropped after it.
 */
export function realDatabase(label: string): () => Database {
  let database: Database | undefined;
  beforeAll(async () => {
    database = await connectDatabase(testInfrastructure().mongoUrl, uniqueName(`contract-${label}`).replace(/-/g, '_'));
  });
  afterAll(async () => {
    await database?.connection.dropDatabase();
    await database?.close();
  });
  return () => {
    if (!database) throw new Error('the contract database is not open yet: call realDatabase at the top of a describe');
    return database;
  };
}
