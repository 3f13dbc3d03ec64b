import { randomFillSync } from 'node:crypto';

/**
 * Random bytes for ids (requests, traces, spans), drawn from the system 4 KiB at a time, as node's
 * own `randomUUID` does: one draw per ~200 ids instead of one per id, a cost the gateway paid three
 * times a request. Each byte is used once. For ids only: secrets take `randomBytes` of their own.
 */
const pool = Buffer.alloc(4096);
let used = pool.length;

/** `bytes` random bytes (1–4096) as lower-case hex. */
export function randomHex(bytes: number): string {
  if (!Number.isInteger(bytes) || bytes < 1 || bytes > pool.length) throw new RangeError(`randomHex takes 1 to ${pool.length} bytes, not ${bytes}`);
  if (used + bytes > pool.length) {
    randomFillSync(pool);
    used = 0;
  }
  const hex = pool.toString('hex', used, used + bytes);
  used += bytes;
  return hex;
}
