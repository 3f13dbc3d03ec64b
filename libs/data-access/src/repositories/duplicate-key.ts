/** True when a bulk write failed only on duplicate keys (code 11000): the documents were already there. */
export function onlyDuplicateKeyErrors(error: unknown): boolean {
  const writeErrors = (error as { writeErrors?: { code?: number; err?: { code?: number } }[] }).writeErrors;
  if (Array.isArray(writeErrors) && writeErrors.length > 0) {
    return writeErrors.every((writeError) => (writeError.code ?? writeError.err?.code) === 11000);
  }
  return (error as { code?: number }).code === 11000;
}
