import { connectDatabase, type Database, DatabaseClock } from '@ecomm-sync/data-access';
import { testInfrastructure, uniqueName } from '../../support';

describe('the database server’s clock, shared by every replica', () => {
  let database: Database;
  const serverTime = async () => Number((await database.connection.db!.admin().command({ isMaster: 1 })).localTime);

  beforeAll(async () => {
    database = await connectDatabase(testInfrastructure().mongoUrl, uniqueName('database_clock').replace(/-/g, '_'));
  });

  afterAll(async () => {
    await database.connection.dropDatabase();
    await database.close();
  });

  it('when a service connects, then its clock reads the server’s time, within the round trip of asking it', async () => {
    const before = database.clock.now();
    const theirs = await serverTime();
    const after = database.clock.now();

    // The server's millisecond falls within our reading before and after asking, give or take the
    // offset's own uncertainty (half the quickest round trip of its measurement; loose on a loaded machine).
    expect(theirs).toBeGreaterThanOrEqual(before - 50);
    expect(theirs).toBeLessThanOrEqual(after + 50);
    expect(database.clock.uncertainty).toEqual(expect.any(Number));
  });

  it.each([
    ['two minutes ahead', 120_000],
    ['an hour behind', -3_600_000],
  ])('when a replica’s own clock runs %s, then it reads the same time as one whose clock is right', async (_case, skewMs) => {
    const askServer = () => serverTime();
    const skewed = new DatabaseClock(askServer, { local: () => Date.now() + skewMs });
    const right = new DatabaseClock(askServer);
    await Promise.all([skewed.measure(), right.measure()]);

    expect(Math.abs(skewed.offset - right.offset - -skewMs)).toBeLessThan(50);
    expect(Math.abs(skewed.now() - right.now())).toBeLessThan(50);
  });
});
