import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import mongoose, { type Connection } from 'mongoose';
import { startPrivateMongoServer } from './mongo-server-launcher';
import { testInfrastructure } from './infrastructure';
import { uniqueName } from './unique-name';

// Compare-and-set filters name `_id` and the field read (`{_id, rev}`, `{_id, claim}`). mongo-java-server
// uses an index only when a filter names exactly its fields, so these scanned the collection unless
// a unique index on `{_id, rev}` existed, which every insert and update paid for. The development
// server now looks the `_id` up in its index and checks the rest on what it found, as MongoDB does
// (decision 15, addendum of 2026-11-27, night). `ecommDocumentsExamined` in serverStatus counts the
// documents each collection compared with a filter: a few for a lookup, all of them for a scan.

const STATES = 2_000;
type State = { _id: string; rev: number; tag: string };

/**
 * The server each table of cases runs against: the suite's shared in-memory server (a database of
 * its own), and an H2 server written to, stopped and started again on its file, so the cases run on
 * the collections H2 reopens (two JVM starts: each is seconds of both cores on a loaded machine).
 */
interface Backend {
  open(): Promise<{ url: string; db: string; close(): Promise<void> }>;
}

const sharedInMemory: Backend = {
  async open() {
    return { url: testInfrastructure().mongoUrl, db: uniqueName('id_lookup').replace(/-/g, '_'), close: async () => undefined };
  },
};

const h2Reopened: Backend = {
  async open() {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'id-lookup-'));
    const start = () => startPrivateMongoServer({ logFile: path.join(dir, 'server.log'), h2File: path.join(dir, 'data.mv') });
    const first = await start();
    const writer = await mongoose.createConnection(`${first.url}/id_lookup_test`).asPromise();
    await writer.db!.collection<State>('states').insertMany(initialStates());
    await writer.close();
    await first.stop();
    const server = await start();
    return {
      url: server.url,
      db: 'id_lookup_test',
      async close() {
        await server.stop();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  },
};

const initialStates = () => Array.from({ length: STATES }, (_, i) => ({ _id: `k${i}`, rev: 0, tag: i % 2 ? 'odd' : 'even' }));

describe.each([
  { backend: 'in-memory', server: sharedInMemory, seeded: false },
  { backend: 'H2, reopened on its file', server: h2Reopened, seeded: true },
])('the development MongoDB server ($backend) looks a filter’s _id up in its index', ({ server, seeded }) => {
  let opened: Awaited<ReturnType<Backend['open']>>;
  let connection: Connection;
  const states = () => connection.db!.collection<State>('states');

  /** Documents the `states` collection compared with a filter while `run` ran. */
  async function examinedBy(run: () => Promise<unknown>): Promise<number> {
    const examined = async () => {
      const status = await connection.db!.admin().command({ serverStatus: 1 });
      return Number((status.ecommDocumentsExamined as Record<string, number>)[`${opened.db}.states`] ?? 0);
    };
    const before = await examined();
    await run();
    return (await examined()) - before;
  }

  beforeAll(async () => {
    opened = await server.open();
    connection = await mongoose.createConnection(`${opened.url}/${opened.db}`).asPromise();
    if (!seeded) await states().insertMany(initialStates());
  });

  afterAll(async () => {
    if (!seeded) await connection.dropDatabase();
    await connection.close();
    await opened.close();
  });

  it('when a filter names no _id, then the collection is scanned (the count sees every document)', async () => {
    let found: State[] = [];
    expect(await examinedBy(async () => (found = await states().find({ tag: 'odd' }).toArray()))).toBe(STATES);
    expect(found).toHaveLength(STATES / 2);
  });

  it('when a compare-and-set names _id and the revision read, then it examines the one document and lands once', async () => {
    const results: number[] = [];
    const examined = await examinedBy(async () => {
      results.push((await states().updateOne({ _id: 'k7', rev: 0 }, { $set: { rev: 1 } })).modifiedCount);
      results.push((await states().updateOne({ _id: 'k7', rev: 0 }, { $set: { rev: 2 } })).modifiedCount);
    });
    expect(results).toEqual([1, 0]);
    expect(examined).toBe(2);
    expect(await states().findOne({ _id: 'k7' })).toEqual({ _id: 'k7', rev: 1, tag: 'odd' });
  });

  it('when a find names _id with $in and another field, then it examines only the listed documents and keeps the matching', async () => {
    let found: State[] = [];
    const examined = await examinedBy(
      async () =>
        (found = await states()
          .find({ _id: { $in: ['k1', 'k2', 'k3', 'missing'] }, tag: 'odd' })
          .toArray()),
    );
    expect(found.map((state) => state._id).sort()).toEqual(['k1', 'k3']);
    expect(examined).toBe(3);
  });

  it('when a find names only _id with a long $in list, then it finds each listed document once, examining only those', async () => {
    const listed = [...Array.from({ length: 1_000 }, (_, i) => `k${i * 2}`), 'k0', 'k2', 'missing-1', 'missing-2'];
    let found: State[] = [];
    const examined = await examinedBy(
      async () =>
        (found = await states()
          .find({ _id: { $in: listed } })
          .toArray()),
    );
    expect(found).toHaveLength(1_000);
    expect(new Set(found.map((state) => state._id))).toEqual(new Set(Array.from({ length: 1_000 }, (_, i) => `k${i * 2}`)));
    expect(found.every((state) => state.tag === 'even')).toBe(true);
    expect(examined).toBe(1_000);
  });

  it('when numeric ids are listed as int, long and double, with sort, limit and projection, then the server answers as MongoDB does', async () => {
    const numbered = connection.db!.collection<{ _id: number; n: number }>('numbered');
    await numbered.deleteMany({});
    await numbered.insertMany(Array.from({ length: 10 }, (_, i) => ({ _id: i + 1, n: i + 1 })));
    const { Long, Double } = mongoose.mongo;

    const found = await numbered
      .find({ _id: { $in: [1, new Double(2), Long.fromNumber(3), 3, 7, 99] as never[] } }, { projection: { n: 0 }, sort: { _id: -1 }, limit: 3 })
      .toArray();

    expect(found).toEqual([{ _id: 7 }, { _id: 3 }, { _id: 2 }]);
  });

  it('when an update names _id with an $in list, then exactly the listed documents change', async () => {
    const result = await states().updateMany({ _id: { $in: ['k10', 'k11', 'missing'] } }, { $set: { tag: 'listed' } });
    expect(result.modifiedCount).toBe(2);
    expect((await states().find({ tag: 'listed' }).toArray()).map((state) => state._id).sort()).toEqual(['k10', 'k11']);
  });

  it('when the _id names $in with another operator, then the whole condition still decides', async () => {
    const found = await states()
      .find({ _id: { $in: ['k20', 'k21', 'k22'], $ne: 'k21' } })
      .toArray();
    expect(found.map((state) => state._id).sort()).toEqual(['k20', 'k22']);
  });

  it('when an $in lists a regular expression beside another field, then it finds what a scan finds', async () => {
    let found: State[] = [];
    await examinedBy(
      async () =>
        (found = await states()
          .find({ _id: { $in: [/^k19\d\d$/, 'k3'] }, tag: 'odd' })
          .toArray()),
    );
    expect(found).toHaveLength(51);
  });

  it('when a delete names _id and a field that does not match, then nothing is deleted', async () => {
    let deleted = -1;
    const examined = await examinedBy(async () => (deleted = (await states().deleteOne({ _id: 'k4', tag: 'odd' })).deletedCount));
    expect({ deleted, examined }).toEqual({ deleted: 0, examined: 1 });
    expect(await states().countDocuments({ _id: 'k4' })).toBe(1);
  });
});
