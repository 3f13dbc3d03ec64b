/** Whether a write failed on a unique index (alone, or as one of a bulk write's errors). */
export const isDuplicateKey = (error: unknown) =>
  (error as { code?: number }).code === 11000 ||
  ((error as { writeErrors?: { code?: number; err?: { code?: number } }[] }).writeErrors ?? []).some((e) => (e.code ?? e.err?.code) === 11000);
