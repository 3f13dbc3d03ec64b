import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import mongoose, { type Connection } from 'mongoose';
import { startPrivateMongoServer, type LaunchedMongoServer } from './mongo-server-launcher';

// Compare-and-set on `{_id, rev}` (imports, budgets, states) counts on a read being one version of
// the document. mongo-java-server's in-memory collections update a stored document in place, key
// by key, and encoded a read's documents after leaving the collection's lock: a read could carry
// the new `rev` with an old field, and the next compare-and-set then wrote the old field back (an
// import page counted by one gateway replica went missing). Reads now return copies taken under
// the lock.

describe('the development MongoDB server reads one version of a document', () => {
  let dir: string;
  let server: LaunchedMongoServer;
  const connections: Connection[] = [];

  beforeAll(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'snapshot-reads-'));
    server = await startPrivateMongoServer({ logFile: path.join(dir, 'server.log') });
    for (let i = 0; i < 4; i++) connections.push(await mongoose.createConnection(`${server.url}/snapshot_test`).asPromise());
  });

  afterAll(async () => {
    await Promise.all(connections.map((connection) => connection.close()));
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('when four clients add to one counter by compare-and-set on its revision, then no addition is lost', async () => {
    type Counter = { _id: string; count: number; padding: string; rev: number };
    // The padding between the count and the revision makes a read's encoding take long enough to overlap an update.
    await connections[0].db!.collection<Counter>('counters').insertOne({ _id: 'c', count: 0, padding: 'x'.repeat(200_000), rev: 0 });
    const perClient = 150;
    const add = async (connection: Connection) => {
      const counters = connection.db!.collection<Counter>('counters');
      for (let added = 0; added < perClient;) {
        const found = (await counters.findOne({ _id: 'c' }))!;
        const result = await counters.updateOne({ _id: 'c', rev: found.rev }, { $set: { count: found.count + 1, rev: found.rev + 1 } });
        if (result.matchedCount === 1) added++;
      }
    };
    await Promise.all(connections.map(add));
    const final = (await connections[0].db!.collection<Counter>('counters').findOne({ _id: 'c' }))!;
    expect({ count: final.count, rev: final.rev }).toEqual({ count: 4 * perClient, rev: 4 * perClient });
  });
});
