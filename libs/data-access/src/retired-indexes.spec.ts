import type { Connection } from 'mongoose';
import { dropRetiredIndexes } from './retired-indexes';

/** A connection whose every dropIndex fails with `code`, recording what it was asked to drop. */
function connectionFailingWith(code: number) {
  const asked: string[] = [];
  const connection = {
    db: {
      collection: (collection: string) => ({
        dropIndex: async (name: string) => {
          asked.push(`${collection}.${name}`);
          throw Object.assign(new Error(`failed with ${code}`), { code });
        },
      }),
    },
  } as unknown as Connection;
  return { connection, asked };
}

describe('dropping retired indexes', () => {
  const retired = [
    { collection: 'object_states', name: '_id_1_rev_1' },
    { collection: 'object_syncs', name: '_id_1_claim_1' },
  ];

  it.each([
    { code: 27, what: 'the index is gone (IndexNotFound)' },
    { code: 26, what: 'the collection is gone (NamespaceNotFound)' },
  ])('when $what, then nothing is left to report', async ({ code }) => {
    const { connection, asked } = connectionFailingWith(code);

    await expect(dropRetiredIndexes(connection, retired)).resolves.toEqual([]);
    expect(asked).toEqual(['object_states._id_1_rev_1', 'object_syncs._id_1_claim_1']);
  });

  it('when a drop fails otherwise (an index build in progress), then start-up goes on and the index is reported with the reason', async () => {
    const { connection } = connectionFailingWith(12587);

    await expect(dropRetiredIndexes(connection, retired)).resolves.toEqual([
      { collection: 'object_states', name: '_id_1_rev_1', reason: 'failed with 12587' },
      { collection: 'object_syncs', name: '_id_1_claim_1', reason: 'failed with 12587' },
    ]);
  });
});
