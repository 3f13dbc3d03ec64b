/** v2 submissions as a shop sends them, shared by the figures that drive the whole stack. */
import { pool } from './stats';

export const BATCH = 200;

export type MakeObject = (n: number) => { properties: object; associations?: object };

export function submission(objectType: string, from: number, count: number, make: MakeObject) {
  return {
    storeId: 'default',
    objectType,
    messages: Array.from({ length: count }, (_, i) => ({
      externalObjectId: `${objectType.toLowerCase()}-${from + i}`,
      action: 'UPSERT',
      changedAt: Date.now(),
      ...make(from + i),
    })),
  };
}

export async function put(url: string, body: string): Promise<number> {
  const started = performance.now();
  const response = await fetch(url, { method: 'PUT', body, headers: { 'content-type': 'application/json' } });
  await response.arrayBuffer();
  if (response.status !== 204) throw new Error(`PUT ${url} answered ${response.status}`);
  return performance.now() - started;
}

/** Sends `total` objects of a type in submissions of BATCH, 4 at a time; `onSent(b, at)` is told when submission b was sent. */
export async function send(url: string, objectType: string, total: number, make: MakeObject, onSent?: (batch: number, at: number) => void): Promise<void> {
  await pool(Math.ceil(total / BATCH), 4, async (b) => {
    const body = submission(objectType, b * BATCH, Math.min(BATCH, total - b * BATCH), make);
    const at = Date.now();
    await put(url, JSON.stringify(body));
    onSent?.(b, at);
  });
}
