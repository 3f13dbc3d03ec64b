import { mongo } from 'mongoose';
import { duplicateKeyIndexes, onlyDuplicateKeyErrors } from './duplicate-key';

const DUPLICATE_KEY = 11000;
const OTHER = 121; // document failed validation

/**
 * A bulk write's failure as the driver throws it (MongoBulkWriteError, mongodb 6): its write
 * errors, and its result. When the server also reported a write concern error, the driver throws
 * with that error's code and message, no write errors, and the result answering the write concern
 * error (bulk/common.js). WriteError and BulkWriteResult are not exported; these have the members
 * that are read. Write errors as mongoose rewrites them keep their code under `err`.
 */
function bulkFailure(writeErrors: { index: number; code?: number; err?: { code: number } }[], writeConcernError?: { code: number; errmsg: string }) {
  const result = { getWriteConcernError: () => writeConcernError } as unknown as mongo.BulkWriteResult;
  const thrown = writeConcernError
    ? { message: writeConcernError.errmsg, code: writeConcernError.code }
    : { message: 'bulk write failed', code: writeErrors[0]?.code ?? writeErrors[0]?.err?.code ?? 0, writeErrors: writeErrors as never[] };
  return new mongo.MongoBulkWriteError(thrown, result);
}

const notMajority = { code: 64, errmsg: 'waiting for replication timed out' };

const cases: { case: string; error: unknown; duplicate: boolean; positions: number[] | null }[] = [
  {
    case: 'a single write refused on a unique index',
    error: new mongo.MongoServerError({ code: DUPLICATE_KEY, errmsg: 'E11000' }),
    duplicate: true,
    positions: null,
  },
  {
    case: 'a single write refused for another reason',
    error: new mongo.MongoServerError({ code: OTHER, errmsg: 'invalid' }),
    duplicate: false,
    positions: null,
  },
  {
    // The driver throws MongoWriteConcernError for any answer with a write concern error, with its write errors copied.
    case: 'a single write refused on a unique index whose answer also says the write concern failed',
    error: new mongo.MongoWriteConcernError({
      ok: 1,
      n: 0,
      writeErrors: [{ index: 0, code: DUPLICATE_KEY, errmsg: 'E11000' }],
      writeConcernError: notMajority,
    }),
    duplicate: false,
    positions: null,
  },
  {
    case: 'a bulk write with duplicates only',
    error: bulkFailure([
      { index: 1, code: DUPLICATE_KEY },
      { index: 3, code: DUPLICATE_KEY },
    ]),
    duplicate: true,
    positions: [1, 3],
  },
  {
    case: 'a bulk write with duplicates only, as mongoose rewrites its errors',
    error: bulkFailure([
      { index: 0, err: { code: DUPLICATE_KEY } },
      { index: 2, err: { code: DUPLICATE_KEY } },
    ]),
    duplicate: true,
    positions: [0, 2],
  },
  {
    case: 'a bulk write with a duplicate and another failure',
    error: bulkFailure([
      { index: 0, code: DUPLICATE_KEY },
      { index: 2, code: OTHER },
    ]),
    duplicate: false,
    positions: null,
  },
  {
    case: 'a bulk write with duplicates and a failed write concern (thrown with the latter’s code)',
    error: bulkFailure([{ index: 1, code: DUPLICATE_KEY }], notMajority),
    duplicate: false,
    positions: null,
  },
  { case: 'an error that is no write failure', error: new Error('socket closed'), duplicate: false, positions: null },
];

describe('duplicate keys', () => {
  it.each(cases)('when $case then it failed on duplicates only: $duplicate, at positions $positions', ({ error, duplicate, positions }) => {
    expect(onlyDuplicateKeyErrors(error)).toBe(duplicate);
    expect(duplicateKeyIndexes(error)).toEqual(positions);
  });
});
