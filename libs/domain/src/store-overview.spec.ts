import { storeOverviews, type CountsIn, type FlaggedFacts } from './store-overview';

const direct = { portalId: 7, appId: null, storeId: 'default' };
const counts = (over: Partial<CountsIn>): CountsIn => ({
  ...direct,
  objectType: 'CONTACT',
  received: 0,
  processed: 0,
  inCrm: 0,
  archivedInCrm: 0,
  withOpenErrors: 0,
  waiting: 0,
  lastProcessedAt: null,
  flagged: [],
  ...over,
});
const flagged = (over: Partial<FlaggedFacts>): FlaggedFacts => ({ waiting: false, openError: false, processed: true, crmId: null, archived: false, ...over });
type States = { received: number; applied: number; withOpenErrors: number; waiting: number; deleted: number; notProcessed: number };

describe('storeOverviews', () => {
  it.each<[string, CountsIn, States]>([
    [
      'when every object applied, then none is left unprocessed',
      counts({ received: 3, processed: 3, inCrm: 3 }),
      { received: 3, applied: 3, withOpenErrors: 0, waiting: 0, deleted: 0, notProcessed: 0 },
    ],
    [
      'when one failed before it reached the CRM, then it has an open error and is neither applied nor unprocessed',
      counts({ received: 3, processed: 3, inCrm: 2, withOpenErrors: 1, flagged: [flagged({ openError: true })] }),
      { received: 3, applied: 2, withOpenErrors: 1, waiting: 0, deleted: 0, notProcessed: 0 },
    ],
    [
      'when an object in the CRM fails a later change, then it counts once, with its open error, not as applied',
      counts({ received: 2, processed: 2, inCrm: 2, withOpenErrors: 1, flagged: [flagged({ openError: true, crmId: 11 })] }),
      { received: 2, applied: 1, withOpenErrors: 1, waiting: 0, deleted: 0, notProcessed: 0 },
    ],
    [
      'when two were never processed, then they are not processed',
      counts({ received: 5, processed: 3, inCrm: 3 }),
      { received: 5, applied: 3, withOpenErrors: 0, waiting: 0, deleted: 0, notProcessed: 2 },
    ],
    [
      'when a line item waits for its deal and also has an open error, then it is waiting only, as the inspector says',
      counts({ objectType: 'LINE_ITEM', received: 1, processed: 1, waiting: 1, withOpenErrors: 1, flagged: [flagged({ waiting: true, openError: true })] }),
      { received: 1, applied: 0, withOpenErrors: 0, waiting: 1, deleted: 0, notProcessed: 0 },
    ],
    [
      'when a line item waited, then failed, beside applied ones, then the row adds up to what was received',
      counts({
        objectType: 'LINE_ITEM',
        received: 10,
        processed: 9,
        inCrm: 7,
        withOpenErrors: 2,
        waiting: 1,
        flagged: [flagged({ waiting: true, openError: true, processed: false }), flagged({ openError: true })],
      }),
      { received: 10, applied: 7, withOpenErrors: 1, waiting: 1, deleted: 0, notProcessed: 1 },
    ],
    [
      'when a delete was applied, then the object is deleted, not applied nor unprocessed',
      counts({ received: 3, processed: 3, inCrm: 2, archivedInCrm: 1 }),
      { received: 3, applied: 2, withOpenErrors: 0, waiting: 0, deleted: 1, notProcessed: 0 },
    ],
    [
      'when more were processed than are stored (states removed), then not processed is never negative',
      counts({ received: 1, processed: 2, inCrm: 2 }),
      { received: 1, applied: 2, withOpenErrors: 0, waiting: 0, deleted: 0, notProcessed: 0 },
    ],
  ])('%s', (_name, row, expected) => {
    const [overview] = storeOverviews([row], [], []);
    expect(overview.objectTypes[row.objectType]).toEqual(expected);
  });

  it('when a store is defined but has no data, then it is listed with its label and zero counts', () => {
    const [overview] = storeOverviews([], [], [{ ...direct, storeId: 'eu', label: 'EU shop' }]);
    expect(overview).toMatchObject({ storeId: 'eu', label: 'EU shop', openErrors: 0, lastProcessedAt: null });
    expect(overview.objectTypes.DEAL).toEqual({ received: 0, applied: 0, withOpenErrors: 0, waiting: 0, deleted: 0, notProcessed: 0 });
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
