import type { Tenant } from '@ecomm-sync/contracts';
import { connectDatabase, type Database } from '@ecomm-sync/data-access';
import { createLogger } from '@ecomm-sync/runtime';
import { aSyncBatch, testInfrastructure, uniqueName } from '@ecomm-sync/testing';
import { RecordSetAsideUseCase } from './use-cases/record-set-aside.use-case';

describe('an accepted batch set aside in the dead-letter queue (mapper, real MongoDB)', () => {
  let database: Database;
  const tenant: Tenant = { portalId: 7, appId: null };

  beforeAll(async () => {
    database = await connectDatabase(testInfrastructure().mongoUrl, uniqueName('mapper_set_aside').replace(/-/g, '_'));
  });

  afterAll(async () => {
    await database?.connection.dropDatabase();
    await database?.close();
  });

  it('when a batch is about to be dead-lettered, then each of its objects has an open error saying so and naming the redrive, once however often it is recorded', async () => {
    const recordSetAside = new RecordSetAsideUseCase(database.repositories, createLogger('test', 'error'), () => 1_800_000_000_000);
    const batch = aSyncBatch({
      tenant,
      objectType: 'DEAL',
      receivedAt: 1_700_000_000_500,
      messages: [
        { externalObjectId: 'd-1', action: 'UPSERT', changedAt: 1_700_000_000_000, properties: { dealname: 'A' } },
        { externalObjectId: 'd-2', action: 'DELETE', changedAt: null, properties: {} },
      ],
    });
    await recordSetAside.execute(batch, 5, new Error('database write timed out'));
    await recordSetAside.execute(batch, 5, new Error('database write timed out')); // delivered again

    const { errors } = await database.repositories.syncErrors.list({ portalId: tenant.portalId, includeResolved: false, limit: 10, offset: 0 });
    expect(
      errors
        .map(({ externalObjectId, type, status, changedAt, erroredAt }) => ({ externalObjectId, type, status, changedAt, erroredAt }))
        .sort((a, b) => a.externalObjectId.localeCompare(b.externalObjectId)),
    ).toEqual([
      { externalObjectId: 'd-1', type: 'UNKNOWN_ERROR', status: 'OPEN', changedAt: 1_700_000_000_000, erroredAt: 1_800_000_000_000 },
      { externalObjectId: 'd-2', type: 'UNKNOWN_ERROR', status: 'OPEN', changedAt: 1_700_000_000_500, erroredAt: 1_800_000_000_000 },
    ]);
    expect(errors.find((error) => error.externalObjectId === 'd-2')?.details).toBe(
      'Error performing[DELETE] DEAL[d-2]: processing failed 5 times (last: database write timed out); the message is kept in the dead-letter queue of mapper.sync-batches and applied once an operator runs: npm run redrive -- mapper.sync-batches',
    );
  });

  it('when a later batch of an object is set aside after the first one was merged, then its error is open again with the new reason', async () => {
    const at = { now: 1_800_000_000_000 };
    const recordSetAside = new RecordSetAsideUseCase(database.repositories, createLogger('test', 'error'), () => at.now);
    const scope = { tenant: { portalId: 8, appId: null }, storeId: 'default', objectType: 'CONTACT' as const };
    const batch = (name: string) =>
      aSyncBatch({ ...scope, receivedAt: 1_700_000_000_000, messages: [{ externalObjectId: 'c-1', action: 'UPSERT', changedAt: null, properties: { name } }] });
    const first = batch('first');
    await recordSetAside.execute(first, 5, new Error('first failure'));
    await database.repositories.syncErrors.resolveSetAside(scope, first.batchId, ['c-1'], at.now + 1); // redriven and merged
    at.now += 60_000;

    await recordSetAside.execute(batch('second'), 5, new Error('second failure'));

    const { errors } = await database.repositories.syncErrors.list({ portalId: 8, includeResolved: false, limit: 10, offset: 0 });
    expect(errors.map(({ externalObjectId, status, erroredAt, details }) => ({ externalObjectId, status, erroredAt, details }))).toEqual([
      { externalObjectId: 'c-1', status: 'OPEN', erroredAt: at.now, details: expect.stringContaining('second failure') },
    ]);
  });

  it('when the dead-lettered message is not a batch at all, then nothing is recorded and nothing throws', async () => {
    const recordSetAside = new RecordSetAsideUseCase(database.repositories, createLogger('test', 'error'));
    await expect(recordSetAside.execute({ not: 'a batch' }, 1, new Error('message fails its schema'))).resolves.toBeUndefined();
  });
});
