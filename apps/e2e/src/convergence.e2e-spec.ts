import fc from 'fast-check';
import { type TestPortal, TestStack, waitFor } from '@ecomm-sync/testing';
import { gatewayClient, type ObjectStatus } from './gateway-client';

/** One product change as an integrator sends it (v2); ids are local to a run. */
interface Change {
  object: number;
  action: 'UPSERT' | 'DELETE';
  changedAt: number;
  properties: { name?: string; price?: number };
}

/** A few objects, few timestamps and values, so that overwrites, deletes and recreations are common. */
const change: fc.Arbitrary<Change> = fc
  .record({
    object: fc.integer({ min: 0, max: 2 }),
    action: fc.constantFrom('UPSERT' as const, 'UPSERT' as const, 'DELETE' as const),
    changedAt: fc.integer({ min: 1, max: 8 }),
    properties: fc.record({ name: fc.constantFrom('Anvil', 'Bolt', 'Crate'), price: fc.integer({ min: 1, max: 9 }) }, { requiredKeys: [] }),
  })
  .map((c) => (c.action === 'DELETE' ? { ...c, properties: {} } : c));

/** The changes, each delivered at least once, in random batches and order, some twice. */
const scenario = fc.array(change, { minLength: 1, maxLength: 10 }).chain((changes) =>
  fc
    .tuple(
      fc.shuffledSubarray(changes, { minLength: changes.length, maxLength: changes.length }),
      fc.array(fc.constantFrom(...changes), { maxLength: 4 }),
      fc.array(fc.integer({ min: 1, max: 4 }), { minLength: 14, maxLength: 14 }),
    )
    .map(([shuffled, duplicates, sizes]) => {
      const delivered = [...shuffled, ...duplicates];
      const batches: Change[][] = [];
      for (let start = 0, i = 0; start < delivered.length; i++) {
        batches.push(delivered.slice(start, start + sizes[i % sizes.length]));
        start += sizes[i % sizes.length];
      }
      return { changes, batches };
    }),
);

/**
 * Issue 4: the same set of changes, delivered in random batches and orders with duplicates, leaves
 * the CRM in the same state as delivering them once in order. Over the real services: gateway,
 * mapper, applier and CRM each run as their own process, so their own concurrency is in play too.
 */
describe('convergence to one CRM state (property, end to end)', () => {
  let stack: TestStack;
  let portal: TestPortal;
  let client: ReturnType<typeof gatewayClient>;
  let run = 0;

  beforeAll(async () => {
    stack = await TestStack.start({ apps: ['crm', 'gateway', 'mapper', 'applier'] });
    portal = await stack.createPortal();
    client = gatewayClient(stack, portal);
  });

  afterAll(async () => {
    await stack?.stop();
  });

  const send = (namespace: string, batch: Change[]) =>
    client.putV2({
      storeId: 'default',
      objectType: 'PRODUCT',
      messages: batch.map((c) => ({ externalObjectId: `${namespace}-${c.object}`, action: c.action, changedAt: c.changedAt, properties: c.properties })),
    });

  /** What the CRM holds for each object of a namespace: its name and price, or absent. */
  async function crmState(namespace: string, objects: number[]): Promise<Record<string, unknown>> {
    const state: Record<string, unknown> = {};
    for (const object of objects) {
      const response = await client.http.get(`/v2/sync/status/default/PRODUCT/${namespace}-${object}`);
      const status = response.data as ObjectStatus;
      if (response.status !== 200 || status.lastProcessedAt === null) return { pending: object };
      if (status.crmId === null) {
        state[object] = 'absent';
        continue;
      }
      const [read] = await stack.crm(portal).batchRead('PRODUCT', [status.crmId], ['name', 'price']);
      state[object] = read ? { name: read.properties.name ?? null, price: read.properties.price ?? null } : 'absent';
    }
    return state;
  }

  it('any batching and order of the same changes, with duplicates, ends in the same CRM state', async () => {
    await fc.assert(
      fc.asyncProperty(scenario, async ({ changes, batches }) => {
        run++;
        const objects = [...new Set(changes.map((c) => c.object))].sort();
        await send(
          `run${run}-once`,
          [...changes].sort((a, b) => a.changedAt - b.changedAt),
        );
        // One batch, in order: each object is processed once, and that is its final state.
        const expected = await waitFor(
          async () => {
            const state = await crmState(`run${run}-once`, objects);
            return 'pending' in state ? undefined : state;
          },
          { timeoutMs: 15_000, message: `run ${run}: the in-order delivery to be applied` },
        );

        for (const batch of batches) await send(`run${run}-shuffled`, batch);
        // Converged: the same state read three times in a row (a passing intermediate state would not hold).
        let last: unknown;
        let matches = 0;
        await waitFor(
          async () => {
            last = await crmState(`run${run}-shuffled`, objects);
            matches = JSON.stringify(last) === JSON.stringify(expected) ? matches + 1 : 0;
            return matches >= 3;
          },
          { timeoutMs: 15_000, intervalMs: 100, message: `run ${run}: the shuffled delivery to converge` },
        ).catch((error: Error) => {
          throw new Error(`${error.message}; expected ${JSON.stringify(expected)}, last seen ${JSON.stringify(last)}`);
        });
      }),
      // No shrinking: each failing run waits out its timeout, so a counterexample is reported as found.
      { numRuns: 20, endOnFailure: true },
    );
  });
});
