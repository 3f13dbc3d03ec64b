import type { MappedChange, ObjectType, Problem } from '@ecomm-sync/contracts';
import { LINE_ITEM_PRODUCT_PROPERTY, type AssociationTargetIds } from './association-targets';
import { ECOMM_SYNCED_PROPERTY } from './ecommerce-setup';
import { planUpserts, type StoredLink } from './plan-upserts';

const change = (externalObjectId: string, overrides: Partial<MappedChange> = {}): MappedChange => ({
  externalObjectId,
  rev: 1,
  action: 'UPSERT',
  changedAt: 1_700_000_000_000,
  settingsRev: 1,
  generation: 0,
  properties: { email: `${externalObjectId}@example.com` },
  associations: {},
  problems: [],
  ...overrides,
});
const CONTACT_PROPERTIES = new Set(['email', 'firstname']);
const LINE_ITEM_PROPERTIES = new Set(['name', 'price', 'quantity']);
const link = (crmId: number, overrides: Partial<StoredLink> = {}): StoredLink => ({ crmId, generation: 0, archived: false, ...overrides });
const noTargets: AssociationTargetIds = new Map();
const mappingProblem: Problem = { type: 'UNKNOWN_ERROR', blocking: true, details: 'the mapping failed' };
const lineItem = (overrides: Partial<MappedChange> = {}) =>
  change('li', { properties: { name: 'Mug', price: '5', quantity: '1' }, associations: { DEAL: ['d1'], PRODUCT: ['p1'] }, ...overrides });
const bothTargets: AssociationTargetIds = new Map<ObjectType, ReadonlyMap<string, number>>([
  ['DEAL', new Map([['d1', 501]])],
  ['PRODUCT', new Map([['p1', 601]])],
]);
const dealOnly: AssociationTargetIds = new Map<ObjectType, ReadonlyMap<string, number>>([['DEAL', new Map([['d1', 501]])]]);

type Outcome = 'update' | 'create' | 'wait' | 'fail';

describe('planUpserts', () => {
  it.each<[string, ObjectType, MappedChange, ReadonlyMap<string, StoredLink>, ReadonlySet<string>, AssociationTargetIds, Outcome, number[]]>([
    ['an object with a live link of its generation', 'CONTACT', change('c'), new Map([['c', link(7)]]), CONTACT_PROPERTIES, noTargets, 'update', []],
    ['an object never linked', 'CONTACT', change('c'), new Map(), CONTACT_PROPERTIES, noTargets, 'create', []],
    ['an object whose link was archived', 'CONTACT', change('c'), new Map([['c', link(7, { archived: true })]]), CONTACT_PROPERTIES, noTargets, 'create', []],
    [
      'an object made again (a newer generation): the old CRM object is archived',
      'CONTACT',
      change('c', { generation: 1 }),
      new Map([['c', link(7)]]),
      CONTACT_PROPERTIES,
      noTargets,
      'create',
      [7],
    ],
    [
      'a contact with an invalid e-mail',
      'CONTACT',
      change('c', { properties: { email: 'not-an-address' } }),
      new Map(),
      CONTACT_PROPERTIES,
      noTargets,
      'fail',
      [],
    ],
    [
      'a change the mapper found a blocking problem in',
      'CONTACT',
      change('c', { problems: [mappingProblem] }),
      new Map(),
      CONTACT_PROPERTIES,
      noTargets,
      'fail',
      [],
    ],
    ['a line item whose deal and product are synced', 'LINE_ITEM', lineItem(), new Map(), LINE_ITEM_PROPERTIES, bothTargets, 'create', []],
    ['a new line item whose product is not synced yet', 'LINE_ITEM', lineItem(), new Map(), LINE_ITEM_PROPERTIES, dealOnly, 'wait', []],
    [
      'a linked line item whose product is gone: written, with an error',
      'LINE_ITEM',
      lineItem(),
      new Map([['li', link(9)]]),
      LINE_ITEM_PROPERTIES,
      dealOnly,
      'update',
      [],
    ],
    [
      'a new line item waiting for its product that also has a blocking mapping problem',
      'LINE_ITEM',
      lineItem({ problems: [mappingProblem] }),
      new Map(),
      LINE_ITEM_PROPERTIES,
      dealOnly,
      'fail',
      [],
    ],
  ])('when the change is %s, then the plan says so', (_case, objectType, upsert, links, definedProperties, targets, outcome, stale) => {
    const plan = planUpserts(objectType, [upsert], { links, definedProperties, targets });
    const got: Outcome = plan.waits.length ? 'wait' : plan.fails.length ? 'fail' : plan.writes[0]?.crmId === null ? 'create' : 'update';
    expect(got).toBe(outcome);
    expect(plan.staleCrmIds).toEqual(stale);
    expect(plan.writes.length + plan.waits.length + plan.fails.length).toBe(1);
  });

  it('when a line item waits, then it names what it waits for; when written with a missing target on update, then the error goes with the write', () => {
    const waiting = planUpserts('LINE_ITEM', [lineItem()], { links: new Map(), definedProperties: LINE_ITEM_PROPERTIES, targets: dealOnly });
    expect(waiting.waits[0].waitingFor).toEqual(['PRODUCT:p1']);
    const updated = planUpserts('LINE_ITEM', [lineItem()], { links: new Map([['li', link(9)]]), definedProperties: LINE_ITEM_PROPERTIES, targets: dealOnly });
    expect(updated.writes[0]).toMatchObject({ crmId: 9, associations: { DEAL: [501] } });
    expect(updated.writes[0].problems).toEqual([expect.objectContaining({ type: 'INVALID_ASSOCIATION_PROPERTY', blocking: false })]);
  });

  it('when a line item is written with its product, then the product is its hs_product_id (the CRM id), and only the deal is an association', () => {
    const plan = planUpserts('LINE_ITEM', [lineItem()], { links: new Map(), definedProperties: LINE_ITEM_PROPERTIES, targets: bothTargets });
    expect(plan.writes[0].properties).toEqual({ name: 'Mug', price: '5', quantity: '1', [LINE_ITEM_PRODUCT_PROPERTY]: '601' });
    expect(plan.writes[0].associations).toEqual({ DEAL: [501] });
  });

  it('when the CRM defines the synced marker, then every write sets it; properties the CRM lacks are left out', () => {
    const plan = planUpserts('CONTACT', [change('c', { properties: { email: 'c@example.com', nickname: 'C' } })], {
      links: new Map(),
      definedProperties: new Set([...CONTACT_PROPERTIES, ECOMM_SYNCED_PROPERTY]),
      targets: noTargets,
    });
    expect(plan.writes[0].properties).toEqual({ email: 'c@example.com', [ECOMM_SYNCED_PROPERTY]: 'true' });
    expect(plan.writes[0].problems).toEqual([expect.objectContaining({ type: 'NO_PROPERTIES_DEFINED', blocking: false })]);
  });
});
