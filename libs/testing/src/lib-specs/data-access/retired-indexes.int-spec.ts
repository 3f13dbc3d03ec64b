import mongoose from 'mongoose';
import { RETIRED_INDEXES, connectDatabase, dropRetiredIndexes } from '@ecomm-sync/data-access';
import { testInfrastructure, uniqueName } from '../../support';

const { mongoUrl } = testInfrastructure();

describe('indexes an earlier version built and this one retired', () => {
  const dbName = uniqueName('retired_indexes').replace(/-/g, '_');

  afterAll(async () => {
    const connection = await mongoose.createConnection(mongoUrl, { dbName }).asPromise();
    await connection.dropDatabase();
    await connection.close();
  });

  it('when a database set up by an earlier version is connected, then its retired indexes are gone and the others are built', async () => {
    // The earlier version's compare-and-set indexes, as its schemas built them.
    const earlier = await mongoose.createConnection(mongoUrl, { dbName }).asPromise();
    await earlier.db!.collection('object_states').createIndex({ _id: 1, rev: 1 }, { unique: true });
    await earlier.db!.collection('object_syncs').createIndex({ _id: 1, claim: 1 }, { unique: true });
    await earlier.db!.collection('waiting_objects').createIndex({ _id: 1, 'change.rev': 1, 'change.settingsRev': 1 }, { unique: true });
    await earlier.db!.collection('credentials').createIndex({ portalId: 1, appId: 1, kind: 1 });
    await earlier.db!.collection('sync_errors').createIndex({ portalId: 1, appId: 1, status: 1, erroredAt: -1 });
    await earlier.close();

    const database = await connectDatabase(mongoUrl, dbName);
    try {
      const names = async (collection: string) => (await database.connection.db!.collection(collection).indexes()).map((index) => index.name);
      expect(await names('object_states')).not.toContain('_id_1_rev_1');
      expect(await names('object_syncs')).not.toContain('_id_1_claim_1');
      expect(await names('waiting_objects')).not.toContain('_id_1_change.rev_1_change.settingsRev_1');
      expect(await names('credentials')).not.toContain('portalId_1_appId_1_kind_1');
      expect(await names('sync_errors')).not.toContain('portalId_1_appId_1_status_1_erroredAt_-1');
      expect(database.undroppedIndexes).toEqual([]);
      // The error listings' sort, newest first with `_id` as the tie-break, is an index's order.
      expect(await names('sync_errors')).toEqual(
        expect.arrayContaining([
          'portalId_1_appId_1_status_1_erroredAt_-1__id_-1',
          'portalId_1_status_1_erroredAt_-1__id_-1',
          'appId_1_status_1_erroredAt_-1__id_-1',
        ]),
      );
      // The sync lag's sweep, of a tenant and of one store.
      expect(await names('object_states')).toEqual(
        expect.arrayContaining(['portalId_1_appId_1_unappliedSince_1', 'portalId_1_appId_1_storeId_1_unappliedSince_1']),
      );
      expect(await names('credentials')).toContain('portalId_1_appId_1_kind_1_createdAt_1_credentialId_1');
    } finally {
      await database.close();
    }
  });

  it('when the retired indexes or their collections do not exist, then dropping them again is no error', async () => {
    const connection = await mongoose.createConnection(mongoUrl, { dbName }).asPromise();
    try {
      await dropRetiredIndexes(connection);
      await expect(dropRetiredIndexes(connection, [...RETIRED_INDEXES, { collection: 'never_created', name: 'a_1' }])).resolves.toEqual([]);
    } finally {
      await connection.close();
    }
  });
});
