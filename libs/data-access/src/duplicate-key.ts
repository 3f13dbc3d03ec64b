const DUPLICATE_KEY = 11000;

interface WriteErrorShape {
  index: number;
  code?: number;
  err?: { code?: number };
}

interface WriteFailure {
  code?: number;
  writeErrors?: WriteErrorShape[];
  /** A bulk write's result (MongoBulkWriteError): its write concern error, when the server reported one beside the write errors. */
  result?: { getWriteConcernError?: () => unknown };
  /** The server's answer as received (MongoServerError). */
  errorResponse?: { writeConcernError?: unknown };
}

/** A write error's code: the driver's WriteError has it, mongoose's rewritten ones keep it under `err`. */
const codeOf = (writeError: WriteErrorShape) => writeError.code ?? writeError.err?.code;

/**
 * Whether the server also said the write concern was not met: then even the writes it did apply
 * may not last, so the failure is not a race on a unique index to be settled by reading the
 * winner, whatever its write errors say. The caller's request fails, and its sender retries it.
 */
const writeConcernFailed = (failure: WriteFailure) =>
  failure.result?.getWriteConcernError?.() !== undefined || failure.errorResponse?.writeConcernError !== undefined;

/**
 * Whether a write failed on unique indexes only: a single write refused as a duplicate, or a bulk
 * write whose every refused operation was (the documents were already there), with nothing else
 * that would make its writes doubtful.
 */
export function onlyDuplicateKeyErrors(error: unknown): boolean {
  const failure = error as WriteFailure;
  if (writeConcernFailed(failure)) return false;
  const writeErrors = failure.writeErrors;
  if (Array.isArray(writeErrors) && writeErrors.length > 0) return writeErrors.every((e) => codeOf(e) === DUPLICATE_KEY);
  return failure.code === DUPLICATE_KEY;
}

/** The positions of a bulk write's operations refused as duplicates, when those are all its failures; otherwise null. */
export function duplicateKeyIndexes(error: unknown): number[] | null {
  const failure = error as WriteFailure;
  const writeErrors = failure.writeErrors;
  if (!Array.isArray(writeErrors) || writeErrors.length === 0 || writeErrors.some((e) => codeOf(e) !== DUPLICATE_KEY)) return null;
  if (writeConcernFailed(failure)) return null;
  return writeErrors.map((e) => e.index);
}
