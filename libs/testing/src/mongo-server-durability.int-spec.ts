import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import mongoose, { type Connection } from 'mongoose';
import { startPrivateMongoServer, type LaunchedMongoServer as MongoServer } from './mongo-server-launcher';

// Issue 16: the development server on H2 acknowledged writes with j:true that a SIGKILL then took
// away (H2 committed in the background about once a second). Decision 16: every acknowledged write
// is committed and synced before its reply. This test starts its own server on an H2 file, kills it
// right after the last acknowledgement and looks at what a restart on the same file finds.

interface StoredObject {
  _id: number;
  round: number;
  version: number;
}

const ROUNDS = 3;
const INSERTS = 200; // half one by one, half in batches of ten
const OLDER_UPDATES = 20; // besides every object of the round, some of earlier rounds; a quarter by findAndModify
const DELETES = 20;
const PARALLEL = 8; // writes in flight at once, as the services have them
const journaled = { writeConcern: { w: 1, j: true } } as const;

async function inParallel<T>(items: readonly T[], work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await work(items[next++]);
  };
  await Promise.all(Array.from({ length: PARALLEL }, worker));
}

function differences(acknowledged: ReadonlyMap<number, StoredObject>, deleted: ReadonlySet<number>, found: readonly StoredObject[]) {
  const foundById = new Map(found.map((object) => [object._id, object]));
  const objects = [...acknowledged.values()];
  return {
    lostInserts: objects.filter((object) => !foundById.has(object._id)).length,
    lostUpdates: objects.filter((object) => foundById.has(object._id) && foundById.get(object._id)?.version !== object.version).length,
    lostDeletes: [...deleted].filter((id) => foundById.has(id)).length,
    unexpected: found.filter((object) => !acknowledged.has(object._id) && !deleted.has(object._id)).length,
  };
}

describe('the development MongoDB server on its H2 file', () => {
  let dir: string;
  let server: MongoServer | undefined;
  let connection: Connection | undefined;

  beforeAll(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'mongo-server-durability-'));
  });

  afterAll(async () => {
    await connection?.close(true);
    await server?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  async function start(round: number) {
    server = await startPrivateMongoServer({ h2File: path.join(dir, 'data.mv'), logFile: path.join(dir, `server-${round}.log`) });
    connection = await mongoose.createConnection(`${server.url}/durability`).asPromise();
    const db = connection.db;
    if (!db) throw new Error('the connection has no database handle');
    return db.collection<StoredObject>('objects');
  }

  /** SIGKILL, then wait for the exit: stop() resolves on the exit event (its SIGTERM comes too late to matter). */
  async function kill() {
    const killed = server;
    const open = connection;
    if (!killed) return;
    process.kill(killed.pid, 'SIGKILL');
    await killed.stop();
    server = undefined;
    connection = undefined;
    await open?.close(true);
  }

  it('when the server is killed right after acknowledging writes with j:true, then a restart on the same file finds every one of them', async () => {
    const acknowledged = new Map<number, StoredObject>();
    const deleted = new Set<number>();
    const indexes: string[] = [];

    for (let round = 1; round <= ROUNDS + 1; round++) {
      const objects = await start(round);

      // Everything acknowledged before the last kill is there, and nothing else.
      const found = await objects.find({}).toArray();
      expect({ round, ...differences(acknowledged, deleted, found) }).toEqual({ round, lostInserts: 0, lostUpdates: 0, lostDeletes: 0, unexpected: 0 });
      const indexNames = (await objects.indexes()).map((index) => index.name);
      expect(indexNames).toEqual(expect.arrayContaining(indexes));
      if (round > ROUNDS) break;

      // createIndexes takes no write concern in driver 6; the server makes every write command durable alike
      const indexName = await objects.createIndex({ [`byRound${round}`]: 1 });
      indexes.push(indexName);

      const ids = Array.from({ length: INSERTS }, (_, i) => round * 1000 + i);
      await inParallel(ids.slice(0, INSERTS / 2), async (id) => {
        const object = { _id: id, round, version: 0 };
        await objects.insertOne(object, journaled);
        acknowledged.set(id, object);
      });
      const batches = Array.from({ length: INSERTS / 20 }, (_, i) => ids.slice(INSERTS / 2 + i * 10, INSERTS / 2 + (i + 1) * 10));
      await inParallel(batches, async (batch) => {
        const batchObjects = batch.map((id) => ({ _id: id, round, version: 0 }));
        await objects.insertMany(batchObjects, journaled);
        for (const object of batchObjects) acknowledged.set(object._id, object);
      });

      const toDelete = ids.slice(0, DELETES);
      await inParallel(toDelete, async (id) => {
        await objects.deleteOne({ _id: id }, journaled);
        acknowledged.delete(id);
        deleted.add(id);
      });

      const ofThisRound = ids.filter((id) => acknowledged.has(id));
      const ofEarlierRounds = [...acknowledged.keys()].filter((id) => id < round * 1000).slice(0, OLDER_UPDATES);
      const toUpdate = [...ofEarlierRounds, ...ofThisRound];
      await inParallel(toUpdate, async (id) => {
        const version = (acknowledged.get(id)?.version ?? 0) + 1;
        if (id % 4 === 0) {
          await objects.findOneAndUpdate({ _id: id }, { $set: { version } }, journaled);
        } else {
          await objects.updateOne({ _id: id }, { $set: { version } }, journaled);
        }
        acknowledged.set(id, { _id: id, round: acknowledged.get(id)?.round ?? round, version });
      });

      await kill();
    }
  }, 180_000);
});
