import { storeOverviews, type CountsIn } from './store-overview';

const direct = { portalId: 7, appId: null, storeId: 'default' };
const counts = (over: Partial<CountsIn>): CountsIn => ({
  ...direct,
  objectType: 'CONTACT',
  received: 0,
  processed: 0,
  inCrm: 0,
  withOpenErrors: 0,
  waiting: 0,
  lastProcessedAt: null,
  ...over,
});

describe('storeOverviews', () => {
  it.each<[string, CountsIn, { received: number; applied: number; withOpenErrors: number; waiting: number; notProcessed: number }]>([
    [
      'when every object applied, then none is left unprocessed',
      counts({ received: 3, processed: 3, inCrm: 3 }),
      { received: 3, applied: 3, withOpenErrors: 0, waiting: 0, notProcessed: 0 },
    ],
    [
      'when one failed, then it has an open error and is not applied',
      counts({ received: 3, processed: 3, inCrm: 2, withOpenErrors: 1 }),
      { received: 3, applied: 2, withOpenErrors: 1, waiting: 0, notProcessed: 0 },
    ],
    [
      'when two were never processed, then they are not processed',
      counts({ received: 5, processed: 3, inCrm: 3 }),
      { received: 5, applied: 3, withOpenErrors: 0, waiting: 0, notProcessed: 2 },
    ],
    [
      'when one waits for its deal, then it is waiting',
      counts({ objectType: 'LINE_ITEM', received: 1, processed: 1, waiting: 1, withOpenErrors: 1 }),
      { received: 1, applied: 0, withOpenErrors: 1, waiting: 1, notProcessed: 0 },
    ],
    [
      'when more were processed than are stored (states removed), then not processed is never negative',
      counts({ received: 1, processed: 2, inCrm: 2 }),
      { received: 1, applied: 2, withOpenErrors: 0, waiting: 0, notProcessed: 0 },
    ],
  ])('%s', (_name, row, expected) => {
    const [overview] = storeOverviews([row], [], []);
    expect(overview.objectTypes[row.objectType]).toEqual(expected);
  });

  it('when a store is defined but has no data, then it is listed with its label and zero counts', () => {
    const [overview] = storeOverviews([], [], [{ ...direct, storeId: 'eu', label: 'EU shop' }]);
    expect(overview).toMatchObject({ storeId: 'eu', label: 'EU shop', openErrors: 0, lastProcessedAt: null });
    expect(overview.objectTypes.DEAL).toEqual({ received: 0, applied: 0, withOpenErrors: 0, waiting: 0, notProcessed: 0 });
  });

  it('when errors of several types are open, then they are counted per type and in all, and the newest processing time wins', () => {
    const [overview] = storeOverviews(
      [counts({ lastProcessedAt: 10 }), counts({ objectType: 'DEAL', lastProcessedAt: 30 })],
      [
        { ...direct, type: 'INVALID_EMAIL_ADDRESS', count: 2 },
        { ...direct, type: 'INVALID_DEAL_STAGE', count: 1 },
      ],
      [],
    );
    expect(overview.openErrorsByType).toEqual({ INVALID_EMAIL_ADDRESS: 2, INVALID_DEAL_STAGE: 1 });
    expect(overview.openErrors).toBe(3);
    expect(overview.lastProcessedAt).toBe(30);
  });

  it('when several tenants and stores have data, then each has its own overview, in order of portal, application and store', () => {
    const overviews = storeOverviews(
      [counts({ appId: 'app-1', storeId: 'b' }), counts({ storeId: 'b' }), counts({ storeId: 'a' }), counts({ portalId: 3 })],
      [],
      [],
    );
    expect(overviews.map((o) => [o.portalId, o.appId, o.storeId])).toEqual([
      [3, null, 'default'],
      [7, null, 'a'],
      [7, null, 'b'],
      [7, 'app-1', 'b'],
    ]);
  });
});
