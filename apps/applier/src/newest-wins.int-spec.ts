import axios from 'axios';
import fc from 'fast-check';
import type { MappedChange, MappedChangesMessage, ObjectType } from '@ecomm-sync/contracts';
import { CrmUnavailableError, HttpCrmClient, type CrmPort } from '@ecomm-sync/crm-client';
import type { Repositories } from '@ecomm-sync/data-access';
import { createLogger } from '@ecomm-sync/runtime';
import { TestStack, type TestPortal } from '@ecomm-sync/testing';
import { ApplyMappedChangesUseCase, type RequestRefresh } from './use-cases/apply-mapped-changes.use-case';
import { CrmWaits } from './use-cases/crm-waits';
import { CrmDirectory } from './use-cases/crm-directory';
import { ResumeCrmWorkUseCase } from './use-cases/resume-crm-work.use-case';

/**
 * A CRM client whose writes each wait a delay drawn by the property before they are sent, so
 * that concurrent batches reach the CRM in every order the property explores; a write the
 * property draws as a fault is not sent and fails as a CRM that does not answer would (what a
 * loaded machine's timeouts do), so its changes are parked and resumed.
 */
function delayingCrm(baseUrl: string, token: string, delays: () => number, faults: () => boolean): CrmPort {
  const client = new HttpCrmClient({ baseUrl, token, timeoutMs: 5000 });
  const later =
    <A extends unknown[], R>(write: (...args: A) => Promise<R>) =>
    async (...args: A): Promise<R> => {
      await new Promise((resolve) => setTimeout(resolve, delays()));
      if (faults()) throw new CrmUnavailableError('CRM unavailable (unreachable); last answer: no answer (drawn)', 0, 'unreachable', null, 'no answer');
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
  async function replicas(count: number, delays: () => number, faults: () => boolean = () => false) {
    const connections = await stack.connections({ createClient: (spec) => delayingCrm(spec.baseUrl, spec.token, delays, faults) });
    const refreshes: { ids: string[] }[] = [];
    const requestRefresh: RequestRefresh = async (_target, ids) => void refreshes.push({ ids });
    // Each replica has its own CRM waits, as each process does.
    const waits = Array.from({ length: count }, () => new CrmWaits(repositories, Date.now));
    const appliers = waits.map(
      (own) =>
        new ApplyMappedChangesUseCase({
          repositories,
          crm: new CrmDirectory(connections, { propertyCacheMs: 60_000 }),
          logger: createLogger('applier-test', 'error'),
          waits: own,
          waitWindowMs: 60_000,
          requestRefresh,
        }),
    );
    // Resumes at once: its clock is past any wait a slow answer starts.
    const resumer = new ResumeCrmWorkUseCase({
      repositories,
      apply: appliers[0],
      waits: waits[0],
      logger: createLogger('applier-test', 'error'),
      clock: () => Date.now() + 10 * 60_000,
    });
    return { appliers, refreshes, resumer };
  }

  interface Scenario {
    objects: number;
    revisions: number;
    batchSize: number;
    order: number[];
    delays: number[];
    /** Which writes fail as unanswered, in the order they are made (cycled; mostly none). */
    faults: boolean[];
  }

  /** Revisions 1..revisions of `objects` products, shuffled into batches of up to `batchSize`. */
  const scenario: fc.Arbitrary<Scenario> = fc.record({
    objects: fc.integer({ min: 1, max: 4 }),
    revisions: fc.integer({ min: 2, max: 4 }),
    batchSize: fc.integer({ min: 1, max: 4 }),
    order: fc.array(fc.nat(), { minLength: 16, maxLength: 16 }),
    delays: fc.array(fc.integer({ min: 0, max: 15 }), { minLength: 8, maxLength: 32 }),
    faults: fc.array(fc.boolean(), { minLength: 1, maxLength: 12 }),
  });

  async function applyConcurrently(replicaCount: number, { objects, revisions, batchSize, order, delays, faults }: Scenario) {
    run++;
    const ids = Array.from({ length: objects }, (_, n) => `race-${replicaCount}-${run}-${n}`);
    const changes = ids.flatMap((id) => Array.from({ length: revisions }, (_, r) => product(id, r + 1)));
    // A permutation drawn by the property: each change sorts by its drawn key.
    const shuffled = changes.map((change, i) => ({ change, key: order[i % order.length] * 64 + i })).sort((a, b) => a.key - b.key);
    const batches: MappedChange[][] = [];
    for (let i = 0; i < shuffled.length; i += batchSize) batches.push(shuffled.slice(i, i + batchSize).map(({ change }) => change));
    let next = 0;
    let write = 0;
    // Faults only among the first writes: the CRM answers again, as it does after a slow spell.
    const fault = () => write < faults.length && faults[write++];
    const { appliers, refreshes, resumer } = await replicas(replicaCount, () => delays[next++ % delays.length], fault);

    const failed = await applyEach(
      appliers,
      batches.map((batch) => ({ batch })),
    );
    await settle(appliers, resumer, refreshes, failed, revisions);
    for (const id of ids) expect({ id, name: await crmName(id) }).toEqual({ id, name: `${id} v${revisions}` });
  }

  /** Applies each batch on a replica (round robin) as one message; answers the batches whose message failed. */
  async function applyEach(appliers: ApplyMappedChangesUseCase[], work: { batch: MappedChange[]; reapply?: boolean; redelivered?: boolean }[]) {
    const outcomes = await Promise.all(
      work.map(async ({ batch, reapply = false, redelivered = false }, i) => {
        const failed = await appliers[i % appliers.length].execute([message('PRODUCT', batch, reapply)], redelivered ? new Set([0]) : new Set());
        return failed.size > 0 ? [batch] : [];
      }),
    );
    return outcomes.flat();
  }

  /**
   * Rounds before a scenario counts as hung: a drawn run of faults fails up to 12 writes in a row
   * (`faults`), and a round makes at least one write, so ten rounds were not always enough (a whole
   * suite drew 11 faults in a row).
   */
  const SETTLE_ROUNDS = 24;

  /**
   * What the running applier does after a first delivery, until nothing is left: a failed message
   * is delivered again (as a redelivery); a refresh is answered as the mapper would (the newest
   * state, mapped again, applied even at the same revision); changes parked because the CRM was
   * slow (a timeout on a loaded machine) are resumed once their wait is due.
   */
  async function settle(
    appliers: ApplyMappedChangesUseCase[],
    resumer: ResumeCrmWorkUseCase,
    refreshes: { ids: string[] }[],
    failed: MappedChange[][],
    revisions: number,
  ) {
    for (let round = 0; ; round++) {
      const asked = [...new Set(refreshes.splice(0).flatMap(({ ids: refreshed }) => refreshed))];
      const parked = await repositories.parkedChanges.count(portal.portalId);
      if (failed.length === 0 && asked.length === 0 && parked === 0) return;
      if (round === SETTLE_ROUNDS)
        throw new Error(`not settled in ${SETTLE_ROUNDS} rounds: ${failed.length} failed, ${asked.length} refreshes, ${parked} parked`);
      failed = await applyEach(appliers, [
        ...failed.map((batch) => ({ batch, redelivered: true })),
        ...asked.map((id) => ({ batch: [product(id, revisions)], reapply: true })),
      ]);
      if (parked > 0) await resumer.run();
    }
  }

  /**
   * Fifteen scenarios, each settling in up to SETTLE_ROUNDS rounds whose CRM requests may each wait out the
   * client's 5-s timeout on a loaded machine (the scenarios are built for that): more than the
   * tier's 60 s, as one whole run saw. A bound against a hang, not a measure of speed.
   */
  const PROPERTY_TIMEOUT_MS = 240_000;

  it.each([
    ['when revisions of the same objects arrive in concurrent batches in any order, then the CRM ends with the newest revision of each', 1],
    ['when two applier replicas write the same objects at once, then the CRM still ends with the newest revision of each', 2],
  ])(
    '%s',
    async (_name, replicas) => {
      await fc.assert(
        fc.asyncProperty(scenario, (drawn) => applyConcurrently(replicas, drawn)),
        { numRuns: 15 },
      );
    },
    PROPERTY_TIMEOUT_MS,
  );

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
