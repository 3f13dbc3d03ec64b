import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import mongoose, { type Connection } from 'mongoose';
import { startPrivateMongoServer, type LaunchedMongoServer as MongoServer } from './mongo-server-launcher';

// The chaos suite's mongodb scenario: after a SIGKILL the development server on H2 answered an insert
// of a document it held with "Document with key ... already existed" instead of a duplicate-key
// error, and a find by _id did not see that document. mongo-java-server writes a document and its
// index entries as separate changes, and a commit taken between the two (by another command, or by
// H2's background writer) put half a command on disk. Here the server is killed while writes are in
// flight, several times, and every restart must find a store whose indexes agree with its documents.

interface Item {
  _id: string;
  sku: string;
  lane: number;
  version: number;
}

const ROUNDS = 4;
const BATCH = 3000; // one insert command long enough for other commands' commits to fall inside it
const TICKS_BEFORE_KILL = 10; // writes (each committed) of another connection while that insert runs

describe('the development MongoDB server on its H2 file, killed mid-write', () => {
  let dir: string;
  let server: MongoServer | undefined;
  let connection: Connection | undefined;

  beforeAll(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'mongo-server-crash-'));
  });

  afterAll(async () => {
    await connection?.close(true);
    await server?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  async function start(round: number) {
    server = await startPrivateMongoServer({ h2File: path.join(dir, 'data.mv'), logFile: path.join(dir, `server-${round}.log`) });
    connection = await mongoose.createConnection(`${server.url}/crash`).asPromise();
    const db = connection.db;
    if (!db) throw new Error('the connection has no database handle');
    const items = db.collection<Item>('items');
    await items.createIndex({ sku: 1 }, { unique: true });
    await items.createIndex({ lane: 1, version: 1 });
    return items;
  }

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

  it('when the server is killed while writes are in flight, then after a restart every stored document is found by its keys and a second insert of it is a duplicate-key error', async () => {
    for (let round = 1; round <= ROUNDS + 1; round++) {
      const items = await start(round);

      const stored = await items.find({}).toArray();
      const ids = stored.map((item) => item._id);
      const byId = await items.countDocuments({ _id: { $in: ids } });
      const bySku = await items.countDocuments({ sku: { $in: stored.map((item) => item.sku) } });
      const again =
        stored.length === 0
          ? []
          : await items.insertMany(stored, { ordered: false }).then(
              () => [],
              (error: { writeErrors?: { code?: number; errmsg?: string }[] | { code?: number; errmsg?: string } }) => [error.writeErrors ?? []].flat(),
            );
      const notDuplicateKey = again.filter((writeError) => writeError.code !== 11000).map((writeError) => `${writeError.code}: ${writeError.errmsg}`);
      expect({ round, byId, bySku, duplicateKeyErrors: again.length - notDuplicateKey.length, notDuplicateKey: notDuplicateKey.slice(0, 3) }).toEqual({
        round,
        byId: stored.length,
        bySku: stored.length,
        duplicateKeyErrors: stored.length,
        notDuplicateKey: [],
      });
      if (round > ROUNDS) break;

      // one long insert, and another connection's small writes, each committed, while it runs; the
      // kill comes while the insert is still under way
      const insert = items
        .insertMany(
          Array.from({ length: BATCH }, (_, i) => ({ _id: `r${round}-${i}`, sku: `sku-${round}-${i}`, lane: i % 7, version: round })),
          { ordered: false },
        )
        .then(
          () => 'finished',
          () => 'killed',
        );
      const ticks = connection?.db?.collection<{ _id: string; n: number }>('ticks');
      for (let n = 0; n < TICKS_BEFORE_KILL; n++) await ticks?.updateOne({ _id: 'tick' }, { $set: { n } }, { upsert: true });
      await kill();
      await insert; // killed mid-way, or (when commits wait for whole commands) finished first
    }
  }, 240_000);
});
