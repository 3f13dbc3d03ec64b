import axios from 'axios';
import fc from 'fast-check';
import type { MappedChange, MappedChangesMessage, ObjectType } from '@ecomm-sync/contracts';
import { HttpCrmClient, type CrmPort } from '@ecomm-sync/crm-client';
import type { Repositories } from '@ecomm-sync/data-access';
import { createLogger } from '@ecomm-sync/logger';
import { TestStack, type TestPortal } from '@ecomm-sync/test-harness';
import { ApplyMappedChangesUseCase, type RequestRefresh } from './use-cases/apply-mapped-changes.use-case';
import { CrmDirectory } from './use-cases/crm-directory';

/**
 * A CRM client whose writes each wait a delay drawn by the property before they are sent, so
 * that concurrent batches reach the CRM in every order the property explores.
 */
function delayingCrm(baseUrl: string, token: string, delays: () => number): CrmPort {
  const client = new HttpCrmClient({ baseUrl, token, timeoutMs: 5000 });
  const later =
    <A extends unknown[], R>(write: (...args: A) => Promise<R>) =>
    async (...args: A): Promise<R> => {
      await new Promise((resolve) => setTimeout(resolve, delays()));
      return write(...args);
    };
  return Object.assign(Object.create(client) as CrmPort, {
    batchUpdate: later(client.batchUpdate.bind(client)),
    batchUpsert: later(client.batchUpsert.bind(client)),
    batchArchive: later(client.batchArchive.bind(client)),
    batchAssociate: later(client.batchAssociate.bind(client)),
  });
}

describe('newest wins: concurrent batches of one object reach the CRM in revision order (applier in-process, real MongoDB, the built-in CRM)', () => {
  let stack: TestStack;
  let portal: TestPortal;
  let repositories: Repositories;
  let run = 0;

  beforeAll(async () => {
    stack = await TestStack.start({ apps: ['crm'] });
    portal = await stack.createPortal();
    repositories = await stack.repositories();
  });

  afterAll(async () => {
    await stack?.stop();
  });

  const tenant = () => ({ portalId: portal.portalId, appId: null });
  const message = (objectType: ObjectType, changes: MappedChange[], reapply = false): MappedChangesMessage => ({
    tenant: tenant(),
    storeId: 'default',
    objectType,
    changes,
    ...(reapply ? { reapply } : {}),
  });
  const product = (externalObjectId: string, rev: number): MappedChange => ({
    externalObjectId,
    rev,
    settingsRev: 1,
    action: 'UPSERT',
    changedAt: 1_700_000_000_000 + rev,
    generation: 0,
    properties: { name: `${externalObjectId} v${rev}` },
    associations: {},
    problems: [],
  });
  const crmName = async (externalObjectId: string) => {
    const sync = await repositories.objectSyncs.findOne({ ...tenant(), storeId: 'default', objectType: 'PRODUCT', externalObjectId });
    if (!sync?.crmId) return undefined;
    const [read] = await stack.crm(portal).batchRead('PRODUCT', [sync.crmId], ['name']);
    return read?.properties.name;
  };

  /** `replicas` appliers over one database; what they ask to refresh is answered as the mapper would. */
  async function replicas(count: number, delays: () => number) {
    const connections = await stack.connections({ createClient: (spec) => delayingCrm(spec.baseUrl, spec.token, delays) });
    const refreshes: { ids: string[] }[] = [];
    const requestRefresh: RequestRefresh = async (_target, ids) => void refreshes.push({ ids });
    const appliers = Array.from(
      { length: count },
      () =>
        new ApplyMappedChangesUseCase(
          repositories,
          new CrmDirectory(connections, { propertyCacheMs: 60_000 }),
          createLogger('applier-test', 'error'),
          Date.now,
          60_000,
          requestRefresh,
        ),
    );
    return { appliers, refreshes };
  }

  interface Scenario {
    objects: number;
    revisions: number;
    batchSize: number;
    order: number[];
    delays: number[];
  }

  /** Revisions 1..revisions of `objects` products, shuffled into batches of up to `batchSize`. */
  const scenario: fc.Arbitrary<Scenario> = fc.record({
    objects: fc.integer({ min: 1, max: 4 }),
    revisions: fc.integer({ min: 2, max: 4 }),
    batchSize: fc.integer({ min: 1, max: 4 }),
    order: fc.array(fc.nat(), { minLength: 16, maxLength: 16 }),
    delays: fc.array(fc.integer({ min: 0, max: 15 }), { minLength: 8, maxLength: 32 }),
  });

  async function applyConcurrently(replicaCount: number, { objects, revisions, batchSize, order, delays }: Scenario) {
    run++;
    const ids = Array.from({ length: objects }, (_, n) => `race-${replicaCount}-${run}-${n}`);
    const changes = ids.flatMap((id) => Array.from({ length: revisions }, (_, r) => product(id, r + 1)));
    // A permutation drawn by the property: each change sorts by its drawn key.
    const shuffled = changes.map((change, i) => ({ change, key: order[i % order.length] * 64 + i })).sort((a, b) => a.key - b.key);
    const batches: MappedChange[][] = [];
    for (let i = 0; i < shuffled.length; i += batchSize) batches.push(shuffled.slice(i, i + batchSize).map(({ change }) => change));
    let next = 0;
    const { appliers, refreshes } = await replicas(replicaCount, () => delays[next++ % delays.length]);

    await Promise.all(batches.map((batch, b) => appliers[b % appliers.length].execute([message('PRODUCT', batch)])));
    // What the mapper does with a refresh: the newest state, mapped again, applied even at the same revision.
    for (let round = 0; refreshes.length > 0; round++) {
      if (round === 10) throw new Error('refreshes did not settle in 10 rounds');
      const asked = [...new Set(refreshes.splice(0).flatMap(({ ids: refreshed }) => refreshed))];
      await Promise.all(asked.map((id, i) => appliers[i % appliers.length].execute([message('PRODUCT', [product(id, revisions)], true)])));
    }
    for (const id of ids) expect(await crmName(id)).toBe(`${id} v${revisions}`);
  }

  it('when revisions of the same objects arrive in concurrent batches in any order, then the CRM ends with the newest revision of each', async () => {
    await fc.assert(
      fc.asyncProperty(scenario, (drawn) => applyConcurrently(1, drawn)),
      { numRuns: 15 },
    );
  });

  it('when two applier replicas write the same objects at once, then the CRM still ends with the newest revision of each', async () => {
    await fc.assert(
      fc.asyncProperty(scenario, (drawn) => applyConcurrently(2, drawn)),
      { numRuns: 15 },
    );
  });

  it('when a change is delivered again after a newer revision was applied, then its object is refreshed (the first attempt may have written after the newer one)', async () => {
    const { appliers, refreshes } = await replicas(1, () => 0);
    const id = `redelivered-${++run}`;
    await appliers[0].execute([message('PRODUCT', [product(id, 2)])]);
    await appliers[0].execute([message('PRODUCT', [product(id, 1)])], new Set([0]));
    expect(refreshes).toEqual([{ ids: [id] }]);
    await appliers[0].execute([message('PRODUCT', [product(id, 1)])]); // first delivery of an old revision: nothing to repair
    expect(refreshes).toHaveLength(1);
  });

  it('when a deal is applied before the contact it names, then the association is made once the contact arrives', async () => {
    const { appliers } = await replicas(1, () => 0);
    const n = ++run;
    const deal: MappedChange = {
      ...product(`deal-first-${n}`, 1),
      properties: { dealname: 'Early order', dealstage: 'checkout_completed' },
      associations: { CONTACT: [`late-contact-${n}`] },
    };
    await appliers[0].execute([message('DEAL', [deal])]);
    const dealSync = await repositories.objectSyncs.findOne({ ...tenant(), storeId: 'default', objectType: 'DEAL', externalObjectId: deal.externalObjectId });
    expect(dealSync?.crmId).toEqual(expect.any(Number));
    expect(
      await repositories.syncErrors.listForObject({ ...tenant(), storeId: 'default', objectType: 'DEAL', externalObjectId: deal.externalObjectId }, false),
    ).toEqual([]);

    const contact: MappedChange = { ...product(`late-contact-${n}`, 1), properties: { email: `late-${n}@example.com` } };
    await appliers[0].execute([message('CONTACT', [contact])]);
    const contactSync = await repositories.objectSyncs.findOne({
      ...tenant(),
      storeId: 'default',
      objectType: 'CONTACT',
      externalObjectId: contact.externalObjectId,
    });

    const read = await axios.get(`${stack.crmUrl}/crm/v3/objects/deals/${dealSync!.crmId}?associations=contacts`, {
      headers: { authorization: `Bearer ${portal.crmToken}` },
    });
    const associated = (read.data.associations?.contacts?.results ?? []).map((result: { id: string | number }) => Number(result.id));
    expect(associated).toEqual([contactSync!.crmId]);
    expect(await repositories.waitingObjects.waitingFor(tenant(), 'default', [`CONTACT:${contact.externalObjectId}`], Date.now())).toEqual([]);
  });
});
