import type { MappedChange, MappedChangesMessage } from '@ecomm-sync/contracts';
import { type CrmConnections, type CrmPort, HttpCrmClient } from '@ecomm-sync/crm-client';
import type { Repositories } from '@ecomm-sync/data-access';
import { createLogger } from '@ecomm-sync/runtime';
import { type TestPortal, TestStack, waitFor } from '@ecomm-sync/testing';
import { ApplyMappedChangesUseCase } from './use-cases/apply-mapped-changes.use-case';
import { CrmWaits } from './use-cases/crm-waits';
import { CrmDirectory } from './use-cases/crm-directory';
import { ResumeCrmWorkUseCase } from './use-cases/resume-crm-work.use-case';

/**
 * Each portal's real CRM port, which a test can take away (nothing listens), revoke (the built-in
 * CRM is sent a token it does not know, and answers 401), hold (answers wait for a gate) and bring back.
 */
function switchableCrm(connections: CrmConnections, crmUrl: () => string) {
  const away = new Set<number>();
  const revoked = new Set<number>();
  const held = new Map<number, Promise<void>>();
  /** Batch upserts a portal's CRM still answers before it goes away (none set: no end). */
  const answersLeft = new Map<number, number>();
  const down = new HttpCrmClient({ baseUrl: 'http://127.0.0.1:9', token: 'none', maxWaitMs: 0 });
  const directory = new CrmDirectory(
    {
      forget: () => connections.forget(),
      clientFor: (portal) =>
        new Proxy({} as CrmPort, {
          get:
            (_target, name: keyof CrmPort) =>
            async (...args: unknown[]) => {
              await held.get(portal.portalId);
              const left = name === 'batchUpsert' ? answersLeft.get(portal.portalId) : undefined;
              if (left !== undefined) answersLeft.set(portal.portalId, left - 1);
              const port = revoked.has(portal.portalId)
                ? new HttpCrmClient({ baseUrl: crmUrl(), token: 'a-revoked-token', maxWaitMs: 0 })
                : away.has(portal.portalId) || (left !== undefined && left <= 0)
                  ? down
                  : connections.clientFor(portal);
              return (port[name] as (...a: unknown[]) => unknown).apply(port, args);
            },
        }),
    },
    { propertyCacheMs: 0 },
  );
  return { directory, away, revoked, held, answersLeft };
}

describe('a CRM that cannot take changes (applier in-process, real MongoDB, the built-in CRM as a process)', () => {
  let stack: TestStack;
  let repositories: Repositories;
  let now = Date.now();
  const clock = () => now;
  let crm: ReturnType<typeof switchableCrm>;
  let apply: ApplyMappedChangesUseCase;
  let resume: ResumeCrmWorkUseCase;
  let waits: CrmWaits;

  beforeAll(async () => {
    stack = await TestStack.start({ apps: ['crm'] });
    repositories = await stack.repositories();
    crm = switchableCrm(await stack.connections(), () => stack.crmUrl);
    waits = new CrmWaits(repositories, clock);
    apply = new ApplyMappedChangesUseCase({ repositories, crm: crm.directory, logger: createLogger('applier-test', 'error'), waits, clock });
    resume = new ResumeCrmWorkUseCase({ repositories, apply, waits, logger: createLogger('applier-test', 'error'), clock });
  });

  afterAll(async () => {
    await stack?.stop();
  });

  let counter = 0;
  const product = (rev = 1, id = `product-${++counter}`): MappedChange => ({
    externalObjectId: id,
    rev,
    settingsRev: 1,
    action: 'UPSERT',
    changedAt: 1_700_000_000_000,
    generation: 0,
    properties: { name: `${id} v${rev}` },
    associations: {},
    problems: [],
  });
  const message = (portal: TestPortal, changes: MappedChange[]): MappedChangesMessage => ({
    tenant: { portalId: portal.portalId, appId: null },
    storeId: 'default',
    objectType: 'PRODUCT',
    changes,
  });
  const key = (portal: TestPortal, externalObjectId: string) => ({
    portalId: portal.portalId,
    appId: null,
    storeId: 'default',
    objectType: 'PRODUCT' as const,
    externalObjectId,
  });
  const nameInCrm = async (portal: TestPortal, externalObjectId: string) => {
    const sync = await repositories.objectSyncs.findOne(key(portal, externalObjectId));
    if (!sync?.crmId) return null;
    const [read] = await stack.crm(portal).batchRead('PRODUCT', [sync.crmId], ['name']);
    return read?.properties.name ?? null;
  };

  it('when the CRM does not answer, then the changes are parked and their message is done, and once it answers they are applied and the wait ends', async () => {
    const portal = await stack.createPortal();
    crm.away.add(portal.portalId);
    const first = product(1);
    expect(await apply.execute([message(portal, [first])])).toEqual(new Set());

    const wait = await repositories.crmWaits.find(portal.portalId);
    expect(wait).toMatchObject({ reason: 'unreachable', tries: 1, lastAnswer: expect.stringContaining('no answer') });
    expect(await repositories.parkedChanges.count(portal.portalId)).toBe(1);
    expect(await nameInCrm(portal, first.externalObjectId)).toBeNull();

    // While it waits, newer changes are parked without a request, the newest revision kept.
    expect(await apply.execute([message(portal, [product(2, first.externalObjectId)])])).toEqual(new Set());
    expect(await repositories.parkedChanges.count(portal.portalId)).toBe(1);
    expect(await repositories.crmWaits.find(portal.portalId)).toMatchObject({ tries: 1 });

    crm.away.delete(portal.portalId);
    now = wait!.until;
    await resume.run();

    expect(await nameInCrm(portal, first.externalObjectId)).toBe(`${first.externalObjectId} v2`);
    expect(await repositories.parkedChanges.count(portal.portalId)).toBe(0);
    expect(await repositories.crmWaits.find(portal.portalId)).toBeNull();
  });

  it("when the CRM refuses the connection's token, then the changes wait without an error record, and are applied once it is mended", async () => {
    const portal = await stack.createPortal();
    crm.revoked.add(portal.portalId);
    const changes = [product(), product(), product()];
    expect(await apply.execute([message(portal, changes)])).toEqual(new Set());

    const wait = (await repositories.crmWaits.find(portal.portalId))!;
    expect(wait).toMatchObject({ reason: 'unauthorized', tries: 1, lastAnswer: expect.stringContaining('401') });
    expect(await repositories.parkedChanges.count(portal.portalId)).toBe(3);
    for (const { externalObjectId } of changes) expect(await repositories.syncErrors.listForObject(key(portal, externalObjectId), false)).toEqual([]);

    // Still refused at the end of the wait: the next is longer, the changes stay parked.
    now = wait.until;
    await resume.run();
    const next = (await repositories.crmWaits.find(portal.portalId))!;
    expect(next).toMatchObject({ reason: 'unauthorized', since: wait.since, tries: 2 });
    expect(await repositories.parkedChanges.count(portal.portalId)).toBe(3);

    crm.revoked.delete(portal.portalId);
    now = next.until;
    await resume.run();
    for (const { externalObjectId } of changes) expect(await nameInCrm(portal, externalObjectId)).toBe(`${externalObjectId} v1`);
    expect(await repositories.crmWaits.find(portal.portalId)).toBeNull();
  });

  it('when the CRM still does not answer at the end of a wait, then the changes stay parked and the next wait is longer', async () => {
    const portal = await stack.createPortal();
    crm.away.add(portal.portalId);
    const parked = product();
    await apply.execute([message(portal, [parked])]);
    const first = (await repositories.crmWaits.find(portal.portalId))!;

    now = first.until;
    await resume.run();

    const second = (await repositories.crmWaits.find(portal.portalId))!;
    expect(second).toMatchObject({ reason: 'unreachable', since: first.since, tries: 2 });
    expect(second.until - now).toBeGreaterThan(first.until - first.since);
    expect(await repositories.parkedChanges.count(portal.portalId)).toBe(1);

    crm.away.delete(portal.portalId);
    now = second.until;
    await resume.run();
    expect(await nameInCrm(portal, parked.externalObjectId)).toBe(`${parked.externalObjectId} v1`);
  });

  it('when the CRM stops taking a resume midway, then the batches written stay done and only the rest stays parked', async () => {
    const portal = await stack.createPortal();
    crm.away.add(portal.portalId);
    const products = Array.from({ length: 250 }, () => product());
    await apply.execute([message(portal, products)]);
    expect(await repositories.parkedChanges.count(portal.portalId)).toBe(250);
    crm.away.delete(portal.portalId);
    // Two upserts; then the CRM goes away again.
    crm.answersLeft.set(portal.portalId, 2);

    now = (await repositories.crmWaits.find(portal.portalId))!.until;
    await resume.run();

    // The batches of 100, 100 and 50 go side by side: which one the CRM refused depends on timing.
    const stillParked = new Set((await repositories.parkedChanges.take(portal.portalId, 300)).map((entry) => entry.change.externalObjectId));
    expect([50, 100]).toContain(stillParked.size);
    const crmIds = await Promise.all(products.map(async (p) => (await repositories.objectSyncs.findOne(key(portal, p.externalObjectId)))?.crmId ?? null));
    // Every product is either written or still parked, never both and never neither.
    expect(products.map((p, i) => (crmIds[i] !== null) !== stillParked.has(p.externalObjectId))).toEqual(products.map(() => true));
    expect(await repositories.crmWaits.find(portal.portalId)).toMatchObject({ reason: 'unreachable', tries: 2 });
    crm.answersLeft.delete(portal.portalId);
  });

  it("when one portal's CRM waits, then another portal's changes in the same batch apply at once", async () => {
    const waiting = await stack.createPortal();
    const other = await stack.createPortal();
    crm.away.add(waiting.portalId);
    const held = product();
    const passing = product();

    expect(await apply.execute([message(waiting, [held]), message(other, [passing])])).toEqual(new Set());

    expect(await nameInCrm(other, passing.externalObjectId)).toBe(`${passing.externalObjectId} v1`);
    expect(await nameInCrm(waiting, held.externalObjectId)).toBeNull();
    expect(await repositories.parkedChanges.count(waiting.portalId)).toBe(1);
    crm.away.delete(waiting.portalId);
  });

  it("when one portal's CRM is slow to answer, then another portal's changes in the same batch do not wait for it", async () => {
    const slow = await stack.createPortal();
    const other = await stack.createPortal();
    let answer!: () => void;
    crm.held.set(slow.portalId, new Promise<void>((resolve) => (answer = resolve)));
    const late = product();
    const passing = product();

    const applying = apply.execute([message(slow, [late]), message(other, [passing])]);
    await waitFor(async () => (await repositories.objectSyncs.findOne(key(other, passing.externalObjectId)))?.crmId ?? undefined, {
      timeoutMs: 10_000,
      message: "the other portal's product to be applied while the slow CRM has not answered",
    });
    expect(await nameInCrm(slow, late.externalObjectId)).toBeNull();

    answer();
    expect(await applying).toEqual(new Set());
    expect(await nameInCrm(slow, late.externalObjectId)).toBe(`${late.externalObjectId} v1`);
    crm.held.delete(slow.portalId);
  });

  it('when a change is parked while a resume finds nothing left, then the wait stays so that the change is applied', async () => {
    const portal = await stack.createPortal();
    crm.away.add(portal.portalId);
    await apply.execute([message(portal, [product()])]);
    crm.away.delete(portal.portalId);
    const seen = (await repositories.crmWaits.due(Number.MAX_SAFE_INTEGER, 100)).find((due) => due.portalId === portal.portalId)!;
    const late = product();
    // A replica parks a change after the resume looked at the wait (a new stamp).
    await waits.park(
      {
        tenant: { portalId: portal.portalId, appId: null },
        storeId: 'default',
        objectType: 'PRODUCT',
        changes: new Map([[late.externalObjectId, late]]),
        reapply: new Set(),
        suspect: new Set(),
        fromWaiting: new Set(),
        messageIndexes: new Set(),
      },
      seen.wait,
    );

    expect(await repositories.crmWaits.clear(seen)).toBe(false);
    now = Math.max(now, seen.wait.until);
    await resume.run();
    expect(await nameInCrm(portal, late.externalObjectId)).toBe(`${late.externalObjectId} v1`);
    expect(await repositories.crmWaits.find(portal.portalId)).toBeNull();
  });
});
