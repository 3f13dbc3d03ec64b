import { mongo } from 'mongoose';
import { duplicateKeyIndexes, onlyDuplicateKeyErrors } from './duplicate-key';

const DUPLICATE_KEY = 11000;
const OTHER = 121; // document failed validation

/**
 * A bulk write's failure as the driver throws it (MongoBulkWriteError): its write errors, and its
 * result, which answers the write concern error the server reported beside them. The driver's
 * WriteError and BulkWriteResult classes are not exported; these have the members that are read.
 */
function bulkFailure(writeErrors: { index: number; code: number }[], writeConcernError?: { code: number; errmsg: string }) {
  const result = { getWriteConcernError: () => writeConcernError } as unknown as mongo.BulkWriteResult;
  return new mongo.MongoBulkWriteError({ message: 'bulk write failed', code: writeErrors[0]?.code, writeErrors: writeErrors as never[] }, result);
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
    case: 'a single write refused on a unique index whose answer also says the write concern failed',
    error: new mongo.MongoServerError({ code: DUPLICATE_KEY, errmsg: 'E11000', writeConcernError: notMajority }),
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
    case: 'a bulk write with a duplicate and another failure',
    error: bulkFailure([
      { index: 0, code: DUPLICATE_KEY },
      { index: 2, code: OTHER },
    ]),
    duplicate: false,
    positions: null,
  },
  {
    case: 'a bulk write with duplicates and a failed write concern',
    error: bulkFailure([{ index: 1, code: DUPLICATE_KEY }], notMajority),
    duplicate: false,
    positions: null,
  },
  { case: 'a bulk write with only a failed write concern', error: bulkFailure([], notMajority), duplicate: false, positions: null },
  { case: 'an error that is no write failure', error: new Error('socket closed'), duplicate: false, positions: null },
];

describe('duplicate keys', () => {
  it.each(cases)('when $case then it failed on duplicates only: $duplicate, at positions $positions', ({ error, duplicate, positions }) => {
    expect(onlyDuplicateKeyErrors(error)).toBe(duplicate);
    expect(duplicateKeyIndexes(error)).toEqual(positions);
  });
});
