import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import mongoose, { type Connection } from 'mongoose';
import { startPrivateMongoServer, type LaunchedMongoServer, type MongoCommandStat } from './mongo-server-launcher';

// The bench's end-to-end figure says which collection's work costs the database server the most
// (bench/src/database-work.ts): the development server counts commands, documents and time per
// collection and command, and reports them in serverStatus as ecommCommandStats.

describe('the development MongoDB server counts work per collection', () => {
  let dir: string;
  let server: LaunchedMongoServer;
  let connection: Connection;

  beforeAll(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'command-stats-'));
    server = await startPrivateMongoServer({ logFile: path.join(dir, 'server.log') });
    connection = await mongoose.createConnection(`${server.url}/stats_test`).asPromise();
  });

  afterAll(async () => {
    await connection.close();
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  const stats = async (): Promise<MongoCommandStat[]> =>
    ((await connection.db!.admin().command({ serverStatus: 1 })).ecommCommandStats as MongoCommandStat[]).filter((stat) => stat.db === 'stats_test');
  const stat = (all: MongoCommandStat[], collection: string, command: string) => all.find((s) => s.collection === collection && s.command === command);

  it('when documents are inserted, updated and found, then each collection and command counts its commands, documents and time', async () => {
    const things = connection.db!.collection('things');
    await things.insertMany([{ _id: 'a' }, { _id: 'b' }, { _id: 'c' }] as never[]);
    await things.bulkWrite([
      { updateOne: { filter: { _id: 'a' as never }, update: { $set: { n: 1 } } } },
      { updateOne: { filter: { _id: 'b' as never }, update: { $set: { n: 2 } } } },
    ]);
    await things.find({ n: { $gte: 1 } }).toArray();
    await connection.db!.collection('others').insertOne({ _id: 'x' } as never);

    const all = await stats();

    expect(stat(all, 'things', 'insert')).toMatchObject({ commands: 1, documents: 3 });
    expect(stat(all, 'things', 'update')).toMatchObject({ commands: 1, documents: 2 });
    expect(stat(all, 'things', 'find')).toMatchObject({ commands: 1, documents: 2 });
    expect(stat(all, 'others', 'insert')).toMatchObject({ commands: 1, documents: 1 });
    expect(stat(all, 'things', 'insert')!.micros).toBeGreaterThan(0);
  });

  // mongo-java-server kept a running size by encoding every written document to BSON again (the
  // old and the new one on an update), most of an insert's cost, for collStats alone. The
  // in-memory server keeps none: collStats counts documents and reports a size of 0.
  it('when documents are written to the in-memory server, then collStats counts them and reports no size', async () => {
    const sized = connection.db!.collection('sized');
    await sized.insertMany(Array.from({ length: 5 }, (_, i) => ({ _id: `d${i}`, text: 'x'.repeat(1_000) })) as never[]);
    await sized.updateOne({ _id: 'd0' as never }, { $set: { text: 'y'.repeat(5_000) } });
    await sized.deleteOne({ _id: 'd1' as never });

    const collStats = await connection.db!.command({ collStats: 'sized' });

    expect(collStats).toMatchObject({ count: 4, size: 0 });
    expect(await sized.findOne({ _id: 'd0' as never })).toMatchObject({ text: 'y'.repeat(5_000) });
  });
});
