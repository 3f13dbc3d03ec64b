import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import mongoose, { Schema, type Connection } from 'mongoose';
import { startPrivateMongoServer, type LaunchedMongoServer as MongoServer } from './mongo-server-launcher';

// The services build their indexes at boot, all models at once and several processes at once, and
// mongoose (autoCreate) sends a `create` for every model at the same time. On H2 a fresh database
// failed with "Document with key 'db.coll' already existed in H2Collection(db.system.namespaces)":
// mongo-java-server's `create` checked for the collection and created it without the database's lock,
// racing with the collections that createIndexes, insert and upserts create implicitly; and it added
// an index to a collection without the collection's lock, while inserts and updates ran ("Unknown
// error: null", documents missing from the new index). Decision 16, "Creating collections". Here
// several connections create the same fresh collections every way at once, and every command must
// succeed and leave one working collection with its indexes and documents.

const CONNECTIONS = 4;
const DATABASES = 10; // fresh databases filled by raw commands; one more by mongoose models
const COLLECTIONS = 20;
const INDEXES = [
  { key: { a: 1 }, options: {} },
  { key: { b: 1, a: -1 }, options: {} },
  { key: { u: 1 }, options: { unique: true, sparse: true } },
] as const;
const EXPECTED_INDEX_NAMES = ['_id_', 'a_1', 'b_1_a_-1', 'u_1'];
const NAMESPACE_EXISTS = 48;

interface Thing {
  _id: string;
  a?: number;
  b?: number;
  u?: number;
  n?: number;
}

interface Failure {
  command: string;
  error: string;
}

async function settle(command: string, work: Promise<unknown>, failures: Failure[], allowedCodes: readonly number[] = []): Promise<void> {
  try {
    await work;
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (typeof code === 'number' && allowedCodes.includes(code)) return;
    failures.push({ command, error: String(error) });
  }
}

function collectionNames(): string[] {
  return Array.from({ length: COLLECTIONS }, (_, i) => `things_${String(i).padStart(2, '0')}`);
}

/** Every connection creates every collection at once: create, each index, an insert and two kinds of upsert. */
async function createConcurrently(connections: readonly Connection[], dbName: string): Promise<Failure[]> {
  const failures: Failure[] = [];
  const work: Promise<void>[] = [];
  connections.forEach((connection, c) => {
    const db = connection.useDb(dbName, { useCache: true }).db;
    if (!db) throw new Error('the connection has no database handle');
    for (const name of collectionNames()) {
      const collection = db.collection<Thing>(name);
      // what mongoose's autoCreate sends; NamespaceExists is the documented answer to a second create
      work.push(settle(`create ${name}`, db.createCollection(name), failures, [NAMESPACE_EXISTS]));
      for (const { key, options } of INDEXES) work.push(settle(`createIndexes ${name} ${JSON.stringify(key)}`, collection.createIndex(key, options), failures));
      work.push(settle(`insert ${name}`, collection.insertOne({ _id: `c${c}`, a: c, b: c, u: c }), failures));
      work.push(settle(`update upsert ${name}`, collection.updateOne({ _id: 'shared' }, { $inc: { n: 1 } }, { upsert: true }), failures));
      work.push(settle(`findAndModify upsert ${name}`, collection.findOneAndUpdate({ _id: 'fam' }, { $inc: { n: 1 } }, { upsert: true }), failures));
    }
  });
  await Promise.all(work);
  return failures;
}

/** What mongoose does at a service's boot: compiling models sends `create`, then createIndexes per model. */
async function bootModelsConcurrently(connections: readonly Connection[], dbName: string): Promise<Failure[]> {
  const failures: Failure[] = [];
  const work: Promise<void>[] = [];
  for (const connection of connections) {
    const scoped = connection.useDb(dbName, { useCache: true });
    const models = collectionNames().map((name) => {
      const schema = new Schema({ a: Number, b: Number, u: Number, n: Number }, { autoIndex: false });
      for (const { key, options } of INDEXES) schema.index(key, options);
      return scoped.model(name, schema, name);
    });
    for (const model of models) {
      work.push(settle(`init ${model.collection.collectionName}`, model.init(), failures));
      work.push(settle(`createIndexes ${model.collection.collectionName}`, model.createIndexes(), failures));
    }
  }
  await Promise.all(work);
  return failures;
}

interface CollectionState {
  name: string;
  indexes: string[];
  ids: string[];
  shared?: number;
  fam?: number;
  duplicateUniqueRejected: boolean;
  duplicateIdRejected: boolean;
}

async function describeDatabase(connection: Connection, dbName: string, withDocuments: boolean): Promise<{ collections: string[]; states: CollectionState[] }> {
  const db = connection.useDb(dbName, { useCache: true }).db;
  if (!db) throw new Error('the connection has no database handle');
  const collections = (await db.listCollections({}, { nameOnly: true }).toArray()).map((info) => info.name).sort();
  const states: CollectionState[] = [];
  for (const name of collectionNames()) {
    const collection = db.collection<Thing>(name);
    const indexes = (await collection.indexes()).map((index) => String(index.name)).sort();
    const documents = await collection.find({}).sort({ _id: 1 }).toArray();
    // the indexes listed are the ones the collection enforces (not only entries in system.indexes)
    const rejected = async (document: Thing) => {
      try {
        await collection.insertOne(document);
        return false;
      } catch (error) {
        if ((error as { code?: unknown }).code === 11000) return true;
        throw error;
      }
    };
    await collection.insertOne({ _id: 'probe-1', u: -1 });
    const duplicateUniqueRejected = await rejected({ _id: 'probe-2', u: -1 });
    const duplicateIdRejected = await rejected({ _id: 'probe-1', u: -2 });
    await collection.deleteMany({ _id: { $in: ['probe-1', 'probe-2'] } });
    states.push({
      name,
      indexes,
      ids: documents.map((document) => document._id).filter((id) => /^c\d$/.test(id)),
      ...(withDocuments ? { shared: documents.find((d) => d._id === 'shared')?.n, fam: documents.find((d) => d._id === 'fam')?.n } : {}),
      duplicateUniqueRejected,
      duplicateIdRejected,
    });
  }
  return { collections, states };
}

function expectedState(withDocuments: boolean): { collections: string[]; states: CollectionState[] } {
  return {
    collections: collectionNames(),
    states: collectionNames().map((name) => ({
      name,
      indexes: EXPECTED_INDEX_NAMES,
      ids: withDocuments ? Array.from({ length: CONNECTIONS }, (_, c) => `c${c}`) : [],
      ...(withDocuments ? { shared: CONNECTIONS, fam: CONNECTIONS } : {}),
      duplicateUniqueRejected: true,
      duplicateIdRejected: true,
    })),
  };
}

describe.each([
  { backend: 'H2 file', h2: true },
  { backend: 'memory', h2: false },
])('the development MongoDB server ($backend) creating collections concurrently', ({ h2 }) => {
  let dir: string;
  let server: MongoServer | undefined;
  let connections: Connection[] = [];

  beforeAll(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'mongo-server-collections-'));
  });

  afterAll(async () => {
    await closeAll();
    await server?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  async function closeAll() {
    await Promise.all(connections.map((connection) => connection.close(true)));
    connections = [];
  }

  async function start(run: number) {
    server = await startPrivateMongoServer({ h2File: h2 ? path.join(dir, 'data.mv') : undefined, logFile: path.join(dir, `server-${run}.log`) });
    const url = server.url;
    connections = await Promise.all(Array.from({ length: CONNECTIONS }, () => mongoose.createConnection(`${url}/admin`, { maxPoolSize: 50 }).asPromise()));
  }

  it('when several connections create the same fresh collections with create, createIndexes, inserts and upserts at once, then every command succeeds and every collection, index and document is there (also after a restart)', async () => {
    await start(1);
    const rawDatabases = Array.from({ length: DATABASES }, (_, i) => `creation_raw_${i}`);
    const modelDatabase = 'creation_models';

    for (const dbName of rawDatabases) {
      expect({ dbName, failures: await createConcurrently(connections, dbName) }).toEqual({ dbName, failures: [] });
      expect(await describeDatabase(connections[0], dbName, true)).toEqual(expectedState(true));
    }
    expect({ dbName: modelDatabase, failures: await bootModelsConcurrently(connections, modelDatabase) }).toEqual({ dbName: modelDatabase, failures: [] });
    expect(await describeDatabase(connections[0], modelDatabase, false)).toEqual(expectedState(false));

    if (!h2) return;
    // what the H2 file holds opens again as the same collections and indexes
    await closeAll();
    await server?.stop();
    server = undefined;
    await start(2);
    for (const dbName of rawDatabases) expect(await describeDatabase(connections[0], dbName, true)).toEqual(expectedState(true));
    expect(await describeDatabase(connections[0], modelDatabase, false)).toEqual(expectedState(false));
  }, 180_000);
});
