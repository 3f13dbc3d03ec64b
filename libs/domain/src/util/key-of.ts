/** A part of a composite key: what JSON keeps apart unambiguously. */
export type KeyPart = string | number | boolean | null;

/**
 * One string for a composite key (map keys, document _ids, hash inputs): the parts as a JSON
 * array, so no separator inside a part can make two keys equal. Stored keys are built by it:
 * its output must never change.
 */
export const keyOf = (...parts: readonly KeyPart[]): string => JSON.stringify(parts);

/** The start of every keyOf(...parts, ...more) with at least one part more, and of no other key. */
export const keyPrefixOf = (...parts: readonly KeyPart[]): string => `${keyOf(...parts).slice(0, -1)}${parts.length > 0 ? ',' : ''}`;
