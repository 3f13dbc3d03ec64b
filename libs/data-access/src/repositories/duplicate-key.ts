/** True when a bulk write failed only on duplicate keys (code 11000): the documents were already there. */
export function onlyDuplicateKeyErrors(error: unknown): boolean {
  const writeErrors = (error as { writeErrors?: { code?: number; err?: { code?: number } }[] }).writeErrors;
  if (Array.isArray(writeErrors) && writeErrors.length > 0) {
    return writeErrors.every((writeError) => (writeError.code ?? writeError.err?.code) === 11000);
  }
  return (error as { code?: number }).code === 11000;
}

/** Indexes of the operations of a bulk write that failed on a duplicate key. */
export function duplicateKeyIndexes(error: unknown): number[] {
  const writeErrors = (error as { writeErrors?: { index?: number; code?: number; err?: { index?: number; code?: number } }[] })
    .writeErrors;
  if (!Array.isArray(writeErrors)) return [];
  return writeErrors
    .filter((writeError) => (writeError.code ?? writeError.err?.code) === 11000)
    .map((writeError) => writeError.index ?? writeError.err?.index ?? -1);
}
