import { type CrmObject, CrmPartialFailure, CrmRequestError, CrmUnavailableError } from '@ecomm-sync/crm-client';
import type { ObjectSync } from '@ecomm-sync/data-access';
import { aStoredSettings } from '@ecomm-sync/testing';
import { aContact, aDeal, aLineItem, anApplierWorld, aProduct, NOW, WAIT_WINDOW_MS, type ApplierWorld, type Fault } from './apply-mapped-changes-fixture';

type Inputs = { id: string; properties: Record<string, string | null> }[];

/** A 207: the CRM writes every input but the one at `index`, which it refuses with `message`. */
const refusesOneInput =
  (index: number, message: string): Fault =>
  async (real, ...args) => {
    const [type, idProperty, inputs] = args as unknown as [string, string, Inputs];
    const written = (await (real as unknown as (...a: unknown[]) => Promise<CrmObject[]>)(
      type,
      idProperty,
      inputs.filter((_input, i) => i !== index),
    )) as CrmObject[];
    throw new CrmPartialFailure('207 multi-status', written, [{ index, message }]);
  };

const throws =
  (error: Error): Fault =>
  async () => {
    throw error;
  };

describe('ApplyMappedChangesUseCase: waiting for objects and for the CRM', () => {
  let world: ApplierWorld;
  beforeEach(async () => {
    world = await anApplierWorld();
  });

  describe('a line item sent before its deal and product', () => {
    it('when it arrives alone, then it waits: not written, not processed, with an open association error', async () => {
      expect(await world.apply('LINE_ITEM', aLineItem('li', 'd', 'p'))).toEqual(new Set());

      expect(world.crm.live('LINE_ITEM')).toEqual([]);
      expect(await world.status('LINE_ITEM', 'li')).toBeNull();
      expect((await world.openErrors('LINE_ITEM', 'li')).map((error) => error.type)).toEqual(['INVALID_ASSOCIATION_PROPERTY']);
      expect((await world.repositories.waitingObjects.waitingFor(world.tenant, 'default', ['DEAL:d'], NOW)).map((entry) => entry.waitingFor)).toEqual([
        ['DEAL:d', 'PRODUCT:p'],
      ]);
    });

    it('when its deal and product arrive, then it is applied, associated with both, its error resolved and its wait over', async () => {
      await world.apply('LINE_ITEM', aLineItem('li', 'd', 'p'));
      await world.apply('DEAL', aDeal('d'));
      expect(await world.status('LINE_ITEM', 'li')).toBeNull();

      await world.apply('PRODUCT', aProduct('p'));

      const lineItem = (await world.status('LINE_ITEM', 'li'))!;
      expect(world.crm.live('LINE_ITEM').find((object) => object.id === lineItem.crmId)?.properties.hs_product_id).toBe(
        String((await world.status('PRODUCT', 'p'))!.crmId),
      );
      expect(await world.openErrors('LINE_ITEM', 'li')).toEqual([]);
      expect(await world.repositories.waitingObjects.due(NOW, 10)).toEqual([]);
    });

    it('when releasing it was missed, then the periodic retry applies it; while its objects are missing the retry costs no CRM request', async () => {
      await world.apply('LINE_ITEM', aLineItem('li', 'd', 'p'));
      world.calls.length = 0;
      await world.useCase.retryWaiting();
      expect(world.writes()).toEqual([]);

      // The deal and product were linked, but the release after them never ran (a crash).
      await world.apply('DEAL', aDeal('d'));
      jest.spyOn(world.repositories.waitingObjects, 'waitingFor').mockResolvedValueOnce([]);
      await world.apply('PRODUCT', aProduct('p'));
      expect(await world.status('LINE_ITEM', 'li')).toBeNull();

      await world.useCase.retryWaiting();
      expect(await world.status('LINE_ITEM', 'li')).toMatchObject({ crmId: expect.any(Number) });
    });

    it("when a waiting change whose objects arrived is held (its tenant's settings paused), then the next retry takes the others first", async () => {
      await world.apply('LINE_ITEM', aLineItem('li-a', 'd', 'p'));
      await world.apply('DEAL', aDeal('d'));
      jest.spyOn(world.repositories.waitingObjects, 'waitingFor').mockResolvedValueOnce([]); // the release after the product is missed
      await world.apply('PRODUCT', aProduct('p'));
      world.setNow(NOW + 10);
      await world.apply('LINE_ITEM', aLineItem('li-b', 'd-2', 'p-2'));
      const { rev: _rev, ...settings } = aStoredSettings();
      await world.repositories.settings.put(world.tenant, { ...settings, enabled: false });
      world.useCase.forgetPortals();
      world.setNow(NOW + 20);

      await world.useCase.retryWaiting(1);

      expect(await world.status('LINE_ITEM', 'li-a')).toBeNull(); // held
      expect((await world.repositories.waitingObjects.due(NOW + 20, 1)).map((entry) => entry.change.externalObjectId)).toEqual(['li-b']);
    });

    it('when its window ends first, then it stops waiting and its error stays open', async () => {
      await world.apply('LINE_ITEM', aLineItem('li', 'd', 'p'));
      world.setNow(NOW + WAIT_WINDOW_MS);

      await world.useCase.retryWaiting();

      expect(await world.repositories.waitingObjects.due(NOW, 10)).toEqual([]);
      expect((await world.openErrors('LINE_ITEM', 'li')).map((error) => error.type)).toEqual(['INVALID_ASSOCIATION_PROPERTY']);
    });

    it('when an older revision of it arrives while it waits, then the newer revision is what is applied', async () => {
      await world.apply('LINE_ITEM', aLineItem('li', 'd', 'p', { rev: 2, properties: { quantity: '5' } }));
      await world.apply('LINE_ITEM', aLineItem('li', 'd', 'p', { rev: 1, properties: { quantity: '1' } }));

      await world.useCase.execute([world.message('DEAL', [aDeal('d')]), world.message('PRODUCT', [aProduct('p')])]);

      expect(world.crm.live('LINE_ITEM').map((object) => object.properties.quantity)).toEqual(['5']);
      expect(await world.status('LINE_ITEM', 'li')).toMatchObject({ appliedRev: 2 });
    });
  });

  it('when a deal names a contact not synced yet, then it is written at once, and associated once the contact arrives', async () => {
    await world.apply('DEAL', aDeal('d', { associations: { CONTACT: ['c'] } }));
    const deal = (await world.status('DEAL', 'd'))!;
    expect(deal.crmId).not.toBeNull();
    expect(await world.openErrors('DEAL', 'd')).toEqual([]);
    expect(world.crm.associationsOf('DEAL', deal.crmId!, 'CONTACT')).toEqual([]);

    await world.apply('CONTACT', aContact('c'));

    expect(world.crm.associationsOf('DEAL', deal.crmId!, 'CONTACT')).toEqual([(await world.status('CONTACT', 'c'))!.crmId]);
  });

  describe('a CRM that refuses some inputs', () => {
    it('when the CRM answers 207 refusing one input of a batch, then only that object fails with its reason, the others are linked, and nothing is sent again', async () => {
      world.faults.set('batchUpsert', refusesOneInput(1, 'dealname is too long for this portal'));

      await world.apply('DEAL', aDeal('d0'), aDeal('d1'), aDeal('d2'));

      expect(world.writes().filter((method) => method === 'batchUpsert')).toHaveLength(1);
      expect(world.crm.live('DEAL').map((object) => object.properties.dealname)).toEqual(['d0', 'd2']);
      for (const id of ['d0', 'd2']) expect(await world.status('DEAL', id)).toMatchObject({ crmId: expect.any(Number) });
      expect(await world.status('DEAL', 'd1')).toMatchObject({ crmId: null });
      const [error] = await world.openErrors('DEAL', 'd1');
      expect(error.type).toBe('UNKNOWN_ERROR');
      expect(error.details).toContain('dealname is too long for this portal');
    });

    it("when the CRM refuses a line item's association with its deal, then the line item stays written and linked, with an open error naming the refusal", async () => {
      await world.apply('DEAL', aDeal('d'));
      await world.apply('PRODUCT', aProduct('p'));
      world.faults.set('batchAssociate', throws(new CrmRequestError('No deal with id 9 (archived or never created)', 404, 'OBJECT_NOT_FOUND')));

      await world.apply('LINE_ITEM', aLineItem('li', 'd', 'p'));

      expect(await world.status('LINE_ITEM', 'li')).toMatchObject({ crmId: expect.any(Number), lastProcessedAt: expect.any(Number) });
      const [error] = await world.repositories.syncErrors.listForObject(
        { ...world.tenant, storeId: 'default', objectType: 'LINE_ITEM', externalObjectId: 'li' },
        false,
      );
      expect(error).toMatchObject({
        type: 'UNKNOWN_ERROR',
        status: 'OPEN',
        details: expect.stringContaining('written, but the CRM refused its association with its DEAL: No deal with id 9'),
        crm: { status: 404, category: 'OBJECT_NOT_FOUND' },
      });
      expect(world.crm.live('LINE_ITEM')).toHaveLength(1);
    });

    it("when the CRM refuses a deal's association with a contact, then the deal stays written and linked, without an error (SPEC.md)", async () => {
      await world.apply('CONTACT', aContact('c'));
      world.faults.set('batchAssociate', throws(new CrmRequestError('No contact with id 9 (archived or never created)', 404, 'OBJECT_NOT_FOUND')));

      await world.apply('DEAL', aDeal('d', { associations: { CONTACT: ['c'] } }));

      expect(await world.status('DEAL', 'd')).toMatchObject({ crmId: expect.any(Number) });
      expect(await world.openErrors('DEAL', 'd')).toEqual([]);
    });

    it("when one of a deal's contacts was archived in the CRM, then the deal is associated with the others, without an error", async () => {
      await world.apply('CONTACT', aContact('c1'), aContact('c2'), aContact('c3'));
      const [c1, c2, c3] = await Promise.all(['c1', 'c2', 'c3'].map(async (id) => (await world.status('CONTACT', id))!.crmId!));
      await world.crm.batchArchive('CONTACT', [c2]);

      await world.apply('DEAL', aDeal('d', { associations: { CONTACT: ['c1', 'c2', 'c3'] } }));

      const deal = (await world.status('DEAL', 'd'))!;
      expect(world.crm.associationsOf('DEAL', deal.crmId!, 'CONTACT').sort()).toEqual([c1, c3].sort());
      expect(await world.openErrors('DEAL', 'd')).toEqual([]);
    });

    it('when the CRM refuses a whole batch for one bad value, then the batch is split in halves until only the bad one fails with the CRM reason', async () => {
      const contacts = Array.from({ length: 16 }, (_, n) =>
        n === 5 ? aContact('c5', { properties: { email: 'c5@example.com', age: 'old' } }) : aContact(`c${n}`),
      );
      world.calls.length = 0;

      await world.apply('CONTACT', ...contacts);

      expect(world.crm.live('CONTACT')).toHaveLength(15);
      const [error] = await world.openErrors('CONTACT', 'c5');
      expect(error.type).toBe('UNKNOWN_ERROR');
      expect(error.details).toContain('"old" is not a number');
      expect(await world.openErrors('CONTACT', 'c0')).toEqual([]);
      // 16, then 8 + 8, 4 + 4, 2 + 2, 1 + 1: nine requests where one by one would be seventeen.
      expect(world.writes().filter((method) => method === 'batchUpsert')).toHaveLength(9);
    });
  });

  describe("the CRM's own words", () => {
    it('when the CRM refuses an input with a category and a correlation id, then the error record keeps them beside its message', async () => {
      world.faults.set(
        'batchUpsert',
        throws(new CrmRequestError('CRM POST failed (400): Property values were not valid', 400, 'VALIDATION_ERROR', 'corr-123')),
      );

      await world.apply('DEAL', aDeal('d1'));

      const [error] = await world.repositories.syncErrors.listForObject(
        { ...world.tenant, storeId: 'default', objectType: 'DEAL', externalObjectId: 'd1' },
        false,
      );
      expect(error).toMatchObject({
        type: 'UNKNOWN_ERROR',
        details: expect.stringContaining('Property values were not valid'),
        crm: { status: 400, category: 'VALIDATION_ERROR', correlationId: 'corr-123' },
      });
    });
  });

  describe('a CRM that cannot take changes now', () => {
    it.each([
      ['does not answer', new CrmUnavailableError('no answer', 0, 'unreachable', null, 'no answer: ECONNREFUSED'), 'unreachable'],
      ['is out of its daily cap', new CrmUnavailableError('daily cap', 429, 'daily-cap', NOW + 3_600_000, '429 daily limit'), 'daily-cap'],
      ['answers 429', new CrmRequestError('too many requests', 429), 'rate-limited'],
      ['answers 503', new CrmRequestError('service unavailable', 503), 'unreachable'],
      [
        'refuses the token (401)',
        new CrmRequestError('CRM POST failed (401): Authentication credentials not found', 401, 'INVALID_AUTHENTICATION'),
        'unauthorized',
      ],
      ['refuses a scope the token lacks (403)', new CrmRequestError('CRM POST failed (403): missing scopes', 403, 'MISSING_SCOPES'), 'unauthorized'],
    ])('when the CRM %s, then the changes are parked and their message is done, with no error and no status', async (_case, error, reason) => {
      world.faults.set('batchUpsert', throws(error));

      expect(await world.apply('DEAL', aDeal('d1'), aDeal('d2'))).toEqual(new Set());

      expect(await world.repositories.parkedChanges.count(world.tenant.portalId)).toBe(2);
      const wait = await world.repositories.crmWaits.find(world.tenant.portalId);
      expect(wait).toMatchObject({ reason });
      expect(wait!.until).toBeGreaterThan(NOW);
      expect(await world.status('DEAL', 'd1')).toBeNull();
      expect(await world.openErrors('DEAL', 'd1')).toEqual([]);
    });

    it("when the CRM refuses the connection's token, then the batch is not split to find a faulty input: one request, every change parked", async () => {
      world.faults.set('batchUpsert', throws(new CrmRequestError('CRM POST failed (401): Authentication credentials not found', 401)));
      world.calls.length = 0;

      await world.apply('CONTACT', ...Array.from({ length: 16 }, (_, n) => aContact(`c${n}`)));

      expect(world.writes().filter((method) => method === 'batchUpsert')).toHaveLength(1);
      expect(await world.repositories.parkedChanges.count(world.tenant.portalId)).toBe(16);
      expect(await world.openErrors('CONTACT', 'c0')).toEqual([]);
    });

    it('when the portal already waits, then new changes are parked without a CRM request', async () => {
      world.faults.set('batchUpsert', throws(new CrmRequestError('too many requests', 429)));
      await world.apply('DEAL', aDeal('d1'));
      world.faults.clear();
      world.calls.length = 0;

      expect(await world.apply('DEAL', aDeal('d2'))).toEqual(new Set());

      expect(world.writes()).toEqual([]);
      expect(await world.repositories.parkedChanges.count(world.tenant.portalId)).toBe(2);
    });

    it('when parked changes are applied after the wait, then they are written and no longer parked', async () => {
      world.faults.set('batchUpsert', throws(new CrmRequestError('too many requests', 429)));
      await world.apply('DEAL', aDeal('d1'), aDeal('d2'));
      world.faults.clear();

      await world.waits.resume(world.tenant.portalId, async () =>
        world.useCase.applyParked(await world.repositories.parkedChanges.take(world.tenant.portalId, 10)),
      );

      expect(world.crm.live('DEAL')).toHaveLength(2);
      expect(await world.repositories.parkedChanges.count(world.tenant.portalId)).toBe(0);
    });

    it('when parked changes fill several CRM batches, then a level goes a few batches at once, contacts one after another, and the next level starts after it', async () => {
      world.faults.set('batchUpsert', throws(new CrmRequestError('too many requests', 429)));
      const ids = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => `${prefix}${i}`);
      await world.useCase.execute([
        world.message(
          'CONTACT',
          ids('c', 250).map((id) => aContact(id)),
        ),
        world.message(
          'PRODUCT',
          ids('p', 300).map((id) => aProduct(id)),
        ),
        world.message(
          'DEAL',
          ids('d', 150).map((id) => aDeal(id)),
        ),
      ]);
      expect(await world.repositories.parkedChanges.count(world.tenant.portalId)).toBe(700);
      const events: string[] = [];
      const inFlight = new Map<string, number>();
      const total = () => [...inFlight.values()].reduce((sum, n) => sum + n, 0);
      let most = 0;
      let mostContacts = 0;
      world.faults.set('batchUpsert', async (real, ...args) => {
        const type = (args as unknown as [string])[0];
        events.push(`start ${type}`);
        inFlight.set(type, (inFlight.get(type) ?? 0) + 1);
        most = Math.max(most, total());
        mostContacts = Math.max(mostContacts, inFlight.get('CONTACT') ?? 0);
        await new Promise<void>((resolve) => setImmediate(resolve));
        try {
          return await real(...args);
        } finally {
          inFlight.set(type, inFlight.get(type)! - 1);
          events.push(`end ${type}`);
        }
      });

      await world.waits.resume(world.tenant.portalId, async () =>
        world.useCase.applyParked(await world.repositories.parkedChanges.take(world.tenant.portalId, 700)),
      );

      expect(most).toBe(4);
      expect(mostContacts).toBe(1);
      const firstDeal = events.indexOf('start DEAL');
      expect(events.slice(firstDeal).filter((event) => event !== 'start DEAL' && event !== 'end DEAL')).toEqual([]);
      expect(events.filter((event) => event === 'start DEAL')).toHaveLength(2);
      expect(world.crm.live('CONTACT')).toHaveLength(250);
      expect(world.crm.live('DEAL')).toHaveLength(150);
      expect(await world.repositories.parkedChanges.count(world.tenant.portalId)).toBe(0);
    });

    it('when changes are consumed while this replica resumes their portal, then they are parked, not written beside the resume', async () => {
      world.faults.set('batchUpsert', throws(new CrmRequestError('too many requests', 429)));
      await world.apply('DEAL', aDeal('d1'));
      world.faults.clear();
      let consumed!: () => void;
      const consumedMeanwhile = new Promise<void>((resolve) => (consumed = resolve));

      const resume = world.waits.resume(world.tenant.portalId, async () => {
        await consumedMeanwhile;
        await world.useCase.applyParked(await world.repositories.parkedChanges.take(world.tenant.portalId, 10));
      });
      world.calls.length = 0;
      expect(await world.apply('DEAL', aDeal('d2'))).toEqual(new Set());
      expect(world.writes()).toEqual([]);
      consumed();
      await resume;

      expect(world.crm.live('DEAL')).toHaveLength(2);
      expect(await world.repositories.parkedChanges.count(world.tenant.portalId)).toBe(0);
    });

    it('when applying fails for a reason other than the CRM waiting, then the message is failed, to be retried', async () => {
      world.faults.set('batchUpsert', async (real, ...args) => {
        if ((args as unknown[])[0] === 'DEAL') throw new Error('a bug');
        return real(...args);
      });

      expect(await world.useCase.execute([world.message('CONTACT', [aContact('c')]), world.message('DEAL', [aDeal('d')])])).toEqual(new Set([1]));

      expect(world.crm.live('CONTACT')).toHaveLength(1);
      expect(await world.repositories.parkedChanges.count(world.tenant.portalId)).toBe(0);
      expect(world.logs.map((entry) => entry.message)).toContain('applying a group of changes failed');
    });
  });

  describe('newest wins across writers', () => {
    /**
     * Before this writer's next record lands, another replica claims the objects and records these
     * revisions of them; `meanwhile` runs in between (what the other replica writes to the CRM).
     */
    function anotherWriterRecords(revisions: Record<string, number>, meanwhile: (seen: Map<string, ObjectSync>) => Promise<unknown> = async () => undefined) {
      const { objectSyncs } = world.repositories;
      const record = objectSyncs.recordProcessed.bind(objectSyncs);
      const ids = Object.keys(revisions);
      jest.spyOn(objectSyncs, 'recordProcessed').mockImplementationOnce(async (...args) => {
        const [scope] = args;
        const seen = await objectSyncs.findMany(scope, ids);
        const other = await objectSyncs.claim(scope, seen, ids, () => true);
        await meanwhile(seen);
        const records = ids.map((externalObjectId) => ({
          externalObjectId,
          rev: revisions[externalObjectId],
          settingsRev: 1,
          processedAt: NOW,
          changedAt: NOW,
        }));
        await record(scope, records, other);
        return record(...args);
      });
    }

    it('when another writer records a newer revision while this one writes, then the newest state is asked for again', async () => {
      await world.apply('CONTACT', aContact('c', { rev: 1 }));
      anotherWriterRecords({ c: 3 });

      await world.apply('CONTACT', aContact('c', { rev: 2 }));

      expect(world.refreshed).toEqual([{ objectType: 'CONTACT', ids: ['c'] }]);
      expect(await world.status('CONTACT', 'c')).toMatchObject({ appliedRev: 3 });
    });

    it('when another writer records an older revision while this one writes, then this one writes its revision again and it is what stays', async () => {
      await world.apply('CONTACT', aContact('c', { rev: 1 }));
      anotherWriterRecords({ c: 1 }, (seen) => world.crm.batchUpdate('CONTACT', [{ id: seen.get('c')!.crmId!, properties: { firstname: 'Stale' } }]));

      await world.apply('CONTACT', aContact('c', { rev: 2, properties: { email: 'c@example.com', firstname: 'Newest' } }));

      expect(world.crm.live('CONTACT').map((object) => object.properties.firstname)).toEqual(['Newest']);
      expect(await world.status('CONTACT', 'c')).toMatchObject({ appliedRev: 2 });
      expect(world.refreshed).toEqual([]);
    });

    it('when the rewrite of raced objects finds the CRM unable to take it, then the objects recorded newer elsewhere are still asked for again, and the rest parked', async () => {
      await world.apply('CONTACT', aContact('newer', { rev: 1 }), aContact('older', { rev: 1 }));
      // The other writer records revision 3 of one and 1 of the other; the rewrite of the second meets a CRM that does not answer.
      anotherWriterRecords({ newer: 3, older: 1 }, async () =>
        world.faults.set('batchUpdate', throws(new CrmUnavailableError('CRM unavailable (unreachable)', 0, 'unreachable', null, 'no answer'))),
      );

      expect(await world.apply('CONTACT', aContact('newer', { rev: 2 }), aContact('older', { rev: 2 }))).toEqual(new Set());

      expect(world.refreshed.flatMap((refresh) => refresh.ids).sort()).toEqual(['newer', 'older']);
      expect(await world.repositories.parkedChanges.count(world.portal.portalId)).toBe(2);
    });

    it('when a redelivered message carries a revision already applied, then the newest state is asked for again (the first attempt may have written after it)', async () => {
      const older = aContact('c', { rev: 1 });
      await world.apply('CONTACT', aContact('c', { rev: 2 }));

      await world.useCase.execute([world.message('CONTACT', [older])], new Set([0]));

      expect(world.refreshed).toEqual([{ objectType: 'CONTACT', ids: ['c'] }]);
    });
  });
});
