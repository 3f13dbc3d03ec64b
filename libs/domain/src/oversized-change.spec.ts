import type { MappedChange } from '@ecomm-sync/contracts';
import { withoutOversizedState } from './oversized-change';

const change = (overrides: Partial<MappedChange> = {}): MappedChange => ({
  externalObjectId: 'p-1',
  rev: 4,
  settingsRev: 2,
  action: 'UPSERT',
  changedAt: 1_700_000_000_000,
  generation: 0,
  properties: { description: 'x'.repeat(50) },
  associations: {},
  problems: [],
  ...overrides,
});
const nonBlocking = { type: 'INVALID_ENUM_PROPERTY' as const, blocking: false, details: 'y'.repeat(50) };

describe('a mapped change too large for one message', () => {
  it.each<[string, MappedChange]>([
    ['when it carries properties, then they are left out', change()],
    ['when it carries only associations, then they are left out', change({ properties: {}, associations: { DEAL: ['d-1'] } })],
    ['when it carries only problems with long details, then they are replaced', change({ properties: {}, problems: [nonBlocking, nonBlocking] })],
  ])('%s, and one blocking UNKNOWN_ERROR names its size and what to do', (_case, oversized) => {
    const carried = withoutOversizedState('PRODUCT', oversized, 20_000_000, 16_777_216);

    expect(carried).toEqual({
      ...oversized,
      properties: {},
      associations: {},
      problems: [
        {
          type: 'UNKNOWN_ERROR',
          blocking: true,
          details:
            'Error performing[UPSERT] PRODUCT[p-1]: its mapped state makes a message of 20000000 bytes, more than the 16777216 bytes ' +
            'the broker takes in one, so it was not written; send shorter property values, or map fewer of them',
        },
      ],
    });
  });

  it.each<[string, MappedChange]>([
    ['when it carries nothing to write and no problem, then nothing can be left out', change({ properties: {} })],
    ['when it carries nothing to write and one problem, then nothing can be left out', change({ properties: {}, problems: [nonBlocking] })],
  ])('%s', (_case, small) => {
    expect(withoutOversizedState('PRODUCT', small, 20_000_000, 16_777_216)).toBeNull();
  });
});
