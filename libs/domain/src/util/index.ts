export { keyOf, keyPrefixOf } from './key-of';
export type { KeyPart } from './key-of';
export { TtlCache } from './ttl-cache';
export { runBounded } from './run-bounded';
