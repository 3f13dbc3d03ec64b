import type { MappedChange, Problem } from '@ecomm-sync/contracts';
import { planGroupWrites, type PlannedDelete } from './plan-group-writes';
import type { StoredLink } from './plan-upserts';

const change = (externalObjectId: string, overrides: Partial<MappedChange> = {}): MappedChange => ({
  externalObjectId,
  rev: 1,
  action: 'UPSERT',
  changedAt: 1_700_000_000_000,
  settingsRev: 1,
  generation: 0,
  properties: { name: externalObjectId },
  associations: {},
  problems: [],
  ...overrides,
});
const blocking: Problem = { type: 'UNKNOWN_ERROR', blocking: true, details: 'the mapping failed' };
const link = (crmId: number, overrides: Partial<StoredLink> = {}): StoredLink => ({ crmId, generation: 0, archived: false, ...overrides });
const context = (links: [string, StoredLink][]) => ({ links: new Map(links), definedProperties: new Set(['name']), targets: new Map() });

describe('planGroupWrites', () => {
  it.each<[string, MappedChange, [string, StoredLink][], 'blocked' | 'delete' | 'upsert', Partial<PlannedDelete> | null]>([
    ['an upsert with a blocking mapping problem', change('p', { problems: [blocking] }), [], 'blocked', null],
    ['a delete with a blocking mapping problem', change('p', { action: 'DELETE', problems: [blocking] }), [['p', link(7)]], 'blocked', null],
    [
      'a delete of a linked object',
      change('p', { action: 'DELETE' }),
      [['p', link(7, { generation: 2 })]],
      'delete',
      { archive: 7, link: { crmId: 7, generation: 2, archived: true } },
    ],
    [
      'a delete of an object archived before',
      change('p', { action: 'DELETE' }),
      [['p', link(7, { archived: true })]],
      'delete',
      { archive: null, link: { crmId: 7, generation: 0, archived: true } },
    ],
    ['a delete of an object never linked', change('p', { action: 'DELETE' }), [], 'delete', { archive: null, link: undefined }],
    ['an upsert', change('p'), [], 'upsert', null],
  ])('when the group holds %s, then the plan says so', (_case, given, links, outcome, planned) => {
    const plan = planGroupWrites('PRODUCT', [given], context(links));
    const got = plan.blocked.length ? 'blocked' : plan.deletes.length ? 'delete' : 'upsert';
    expect(got).toBe(outcome);
    if (outcome === 'blocked') expect(plan.blocked[0].problems).toEqual([blocking]);
    if (planned) expect(plan.deletes[0]).toEqual({ change: given, ...planned, ...(planned.link ? {} : { link: undefined }) });
    if (outcome === 'upsert') expect(plan.upserts.writes).toHaveLength(1);
  });
});
