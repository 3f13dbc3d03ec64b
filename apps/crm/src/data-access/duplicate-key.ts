const DUPLICATE_KEY = 11000;

/** Whether a write failed on a unique index (alone, or as one of a bulk write's errors). */
export const isDuplicateKey = (error: unknown) =>
  (error as { code?: number }).code === DUPLICATE_KEY ||
  ((error as { writeErrors?: { code?: number; err?: { code?: number } }[] }).writeErrors ?? []).some((e) => (e.code ?? e.err?.code) === DUPLICATE_KEY);

/** The positions of a bulk write's operations refused as duplicates, when those are all its failures; otherwise null. */
export function duplicateKeyIndexes(error: unknown): number[] | null {
  const writeErrors = (error as { writeErrors?: { index: number; code?: number }[] }).writeErrors;
  if (!Array.isArray(writeErrors) || writeErrors.length === 0 || writeErrors.some((e) => e.code !== DUPLICATE_KEY)) return null;
  return writeErrors.map((e) => e.index);
}
