import mongoose, { type Connection } from 'mongoose';
import { driverCollection } from '@ecomm-sync/data-access';
import { testInfrastructure, uniqueName } from '@ecomm-sync/testing';
import { CLAIM_GRACE_MS } from '../domain/unique-claim-state';
import { crmModels, type CrmObjectDoc, type UniqueValueDoc } from './crm-models';
import { UniqueClaims } from './unique-claims';
import { upsertOwners } from './upsert-owners';
import { uniqueValueKey } from './unique-values';

const { mongoUrl } = testInfrastructure();

/** The upsert's owners over the real database, with another writer's step put between two of its own. */
describe('upsertOwners', () => {
  let connection: Connection;
  let claims: UniqueClaims;
  let claimDocs: ReturnType<typeof driverCollection<UniqueValueDoc>>;
  let portalId = 9_100;

  beforeAll(async () => {
    connection = await mongoose.createConnection(mongoUrl, { dbName: uniqueName('crm-upsert-owners').replace(/-/g, '_') }).asPromise();
    const models = crmModels(connection);
    claimDocs = driverCollection<UniqueValueDoc>(models.uniqueValues);
    claims = new UniqueClaims(claimDocs, driverCollection<CrmObjectDoc>(models.objects));
  });

  beforeEach(() => {
    portalId++;
  });

  afterEach(() => jest.restoreAllMocks());

  afterAll(async () => {
    await connection.dropDatabase();
    await connection.close();
  });

  const where = () => ({ portalId, objectType: 'contacts' as const, property: 'email' });
  const leftBehind = (value: string, objectId: number) =>
    claimDocs.insertOne({
      _id: uniqueValueKey(portalId, 'contacts', 'email', value),
      portalId,
      objectType: 'contacts',
      property: 'email',
      value,
      objectId,
      claimedAt: new Date(Date.now() - 2 * CLAIM_GRACE_MS),
    });

  it('when a claim left behind is released before the upsert takes it over, then the upsert claims the value for its new id', async () => {
    await leftBehind('gone@example.com', 111);
    const reassign = claims.takeover.reassign.bind(claims.takeover);
    jest.spyOn(claims.takeover, 'reassign').mockImplementation(async (moves, claimedAt) => {
      // The dead writer's release lands between this upsert's read and its take-over.
      await claimDocs.deleteMany({ _id: { $in: moves.map(({ claim }) => claim._id) } });
      return reassign(moves, claimedAt);
    });

    const result = await upsertOwners(claims, async (count) => [501, 502].slice(0, count), where(), ['Gone@example.com']);

    expect(result.owners).toEqual(new Map([['Gone@example.com', 501]]));
    expect([...result.fresh]).toEqual([501]);
    expect(await claimDocs.findOne({ _id: uniqueValueKey(portalId, 'contacts', 'email', 'gone@example.com') })).toMatchObject({ objectId: 501 });
  });

  it('when another upsert takes over the claim first, then its owner wins and nothing is claimed for the new id', async () => {
    await leftBehind('raced@example.com', 222);
    const reassign = claims.takeover.reassign.bind(claims.takeover);
    jest.spyOn(claims.takeover, 'reassign').mockImplementation(async (moves, claimedAt) => {
      await reassign(
        moves.map(({ claim }) => ({ claim, objectId: 777 })),
        new Date(),
      );
      return reassign(moves, claimedAt);
    });

    const result = await upsertOwners(claims, async () => [601], where(), ['raced@example.com']);

    expect(result.owners).toEqual(new Map([['raced@example.com', 777]]));
    expect(result.fresh.size).toBe(0);
    expect(result.made).toEqual([]);
  });
});
