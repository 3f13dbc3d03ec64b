import { SYNC_KEY_PROPERTY, ECOMM_SYNCED_PROPERTY } from '@ecomm-sync/domain';
import { settingsOwner } from '@ecomm-sync/data-access';
import { CrmPartialFailure, CrmRequestError } from '@ecomm-sync/crm-client';
import { aStoredSettings } from '@ecomm-sync/testing';
import { aContact, aDeal, aLineItem, anApplierWorld, aProduct, NOW, type ApplierWorld } from './apply-mapped-changes-fixture';

describe('ApplyMappedChangesUseCase: writing, failing and newest wins', () => {
  let world: ApplierWorld;
  beforeEach(async () => {
    world = await anApplierWorld();
  });

  it('when a new contact arrives, then the CRM has it marked as synced with its sync key, and its status links it', async () => {
    expect(await world.apply('CONTACT', aContact('c1', { rev: 3, settingsRev: 2 }))).toEqual(new Set());

    const [created] = world.crm.live('CONTACT');
    expect(created.properties).toMatchObject({
      email: 'c1@example.com',
      firstname: 'c1',
      [ECOMM_SYNCED_PROPERTY]: 'true',
      [SYNC_KEY_PROPERTY]: expect.any(String),
    });
    expect(await world.status('CONTACT', 'c1')).toMatchObject({
      crmId: created.id,
      archived: false,
      appliedRev: 3,
      appliedSettingsRev: 2,
      lastProcessedAt: NOW,
    });
    expect(await world.openErrors('CONTACT', 'c1')).toEqual([]);
  });

  it('when the CRM answers an upsert with only the properties each input wrote, then every new object is linked by its sync key', async () => {
    type Input = { id: string; properties: Record<string, string | null> };
    world.faults.set('batchUpsert', async (real, ...args) => {
      const [, , inputs] = args as unknown as [string, string, Input[]];
      const written = (await (real as unknown as (...a: unknown[]) => Promise<{ id: number; properties: Record<string, string | null> }[]>)(...args)) ?? [];
      // As an answer that echoes what was written: no property an input did not carry.
      return written.map((object, i) => ({ id: object.id, properties: { ...inputs[i].properties } }));
    });

    await world.apply('PRODUCT', aProduct('p1'), aProduct('p2'));

    const [first, second] = world.crm.live('PRODUCT');
    expect(await world.status('PRODUCT', 'p1')).toMatchObject({ crmId: first.id });
    expect(await world.status('PRODUCT', 'p2')).toMatchObject({ crmId: second.id });
    expect(await world.openErrors('PRODUCT', 'p1')).toEqual([]);
  });

  it('when the same change is delivered twice, then the CRM has one object and the second costs no CRM write', async () => {
    const change = aContact('c1');
    await world.apply('CONTACT', change);
    world.calls.length = 0;

    await world.useCase.execute([world.message('CONTACT', [change])], new Set([0]));

    expect(world.crm.live('CONTACT')).toHaveLength(1);
    expect(world.writes()).toEqual([]);
  });

  it('when a create reached the CRM but its status was never recorded, then the retried message links the object it made by its sync key', async () => {
    const change = aDeal('d1');
    // A crash between the CRM write and the record: the message fails and is retried.
    jest.spyOn(world.repositories.objectSyncs, 'recordProcessed').mockRejectedValueOnce(new Error('the database went away'));
    expect(await world.apply('DEAL', change)).toEqual(new Set([0]));
    expect(await world.status('DEAL', 'd1')).toBeNull();

    expect(await world.useCase.execute([world.message('DEAL', [change])], new Set([0]))).toEqual(new Set());

    const [made] = world.crm.live('DEAL');
    expect(world.crm.live('DEAL')).toHaveLength(1);
    expect(await world.status('DEAL', 'd1')).toMatchObject({ crmId: made.id, appliedRev: change.rev });
  });

  it('when a newer revision of a linked contact arrives, then its CRM object is updated in place', async () => {
    await world.apply('CONTACT', aContact('c1', { rev: 1 }));
    await world.apply('CONTACT', aContact('c1', { rev: 2, properties: { email: 'c1@example.com', firstname: 'Renamed' } }));

    expect(world.crm.live('CONTACT').map((object) => object.properties.firstname)).toEqual(['Renamed']);
    expect(await world.status('CONTACT', 'c1')).toMatchObject({ appliedRev: 2 });
  });

  it('when an older revision arrives after a newer one, then the newer values stay and nothing is written', async () => {
    await world.apply('CONTACT', aContact('c1', { rev: 2, properties: { email: 'c1@example.com', firstname: 'Newer' } }));
    world.calls.length = 0;

    await world.apply('CONTACT', aContact('c1', { rev: 1, properties: { email: 'c1@example.com', firstname: 'Older' } }));

    expect(world.crm.live('CONTACT').map((object) => object.properties.firstname)).toEqual(['Newer']);
    expect(world.writes()).toEqual([]);
    expect(await world.status('CONTACT', 'c1')).toMatchObject({ appliedRev: 2 });
  });

  it('when messages of one batch carry revisions of the same object in any order, then only the newest is written', async () => {
    const older = aContact('c1', { rev: 1, properties: { email: 'c1@example.com', firstname: 'Older' } });
    const newer = aContact('c1', { rev: 1, settingsRev: 2, properties: { email: 'c1@example.com', firstname: 'Re-mapped' } });

    await world.useCase.execute([world.message('CONTACT', [newer]), world.message('CONTACT', [older])]);

    expect(world.crm.live('CONTACT').map((object) => object.properties.firstname)).toEqual(['Re-mapped']);
    expect(await world.status('CONTACT', 'c1')).toMatchObject({ appliedRev: 1, appliedSettingsRev: 2 });
  });

  it('when a contact has the e-mail of a contact already in the CRM, then it is linked to that one and no contact is made', async () => {
    const [existing] = await world.crm.batchCreate('CONTACT', [{ properties: { email: 'C1@Example.com' } }]);

    await world.apply('CONTACT', aContact('c1'));

    expect(world.crm.live('CONTACT').map((object) => object.id)).toEqual([existing.id]);
    expect(await world.status('CONTACT', 'c1')).toMatchObject({ crmId: existing.id });
  });

  it('when a linked contact changes its e-mail to one another CRM contact holds, then it is linked to that contact and written there, with no error', async () => {
    await world.apply('CONTACT', aContact('c1'));
    const [other] = await world.crm.batchCreate('CONTACT', [{ properties: { email: 'taken@example.com' } }]);

    await world.apply('CONTACT', aContact('c1', { rev: 2, properties: { email: 'Taken@example.com', firstname: 'Moved' } }));

    expect(await world.status('CONTACT', 'c1')).toMatchObject({ crmId: other.id, appliedRev: 2 });
    expect(world.crm.live('CONTACT').find((object) => object.id === other.id)?.properties.firstname).toBe('Moved');
    expect(await world.openErrors('CONTACT', 'c1')).toEqual([]);
  });

  it('when the CRM answers that conflict in a 207 (category CONFLICT) rather than a 409, then the contact is still linked to the holder and written there', async () => {
    await world.apply('CONTACT', aContact('c1'));
    const [other] = await world.crm.batchCreate('CONTACT', [{ properties: { email: 'taken@example.com' } }]);
    let first = true;
    world.faults.set('batchUpdate', async (real, ...args) => {
      if (!first) return (real as unknown as (...a: unknown[]) => Promise<unknown>)(...args);
      first = false;
      throw new CrmPartialFailure(
        'CRM batch write: 1 of 1 inputs refused',
        [],
        [{ index: 0, message: `Contact already exists. Existing ID: ${other.id}`, category: 'CONFLICT' }],
      );
    });

    await world.apply('CONTACT', aContact('c1', { rev: 2, properties: { email: 'taken@example.com', firstname: 'Moved' } }));

    expect(await world.status('CONTACT', 'c1')).toMatchObject({ crmId: other.id, appliedRev: 2 });
    expect(world.crm.live('CONTACT').find((object) => object.id === other.id)?.properties.firstname).toBe('Moved');
    expect(await world.openErrors('CONTACT', 'c1')).toEqual([]);
  });

  it('when two new ids with one e-mail (in any case) arrive in one batch, then the CRM has one contact, both ids link to it, and it cost one write', async () => {
    world.calls.length = 0;
    await world.apply(
      'CONTACT',
      aContact('c1', { properties: { email: 'same@example.com', firstname: 'First' } }),
      aContact('c2', { properties: { email: 'Same@Example.com', age: '42' } }),
    );

    const [only] = world.crm.live('CONTACT');
    expect(world.crm.live('CONTACT')).toHaveLength(1);
    expect(only.properties).toMatchObject({ firstname: 'First', age: '42' });
    expect(await world.status('CONTACT', 'c1')).toMatchObject({ crmId: only.id });
    expect(await world.status('CONTACT', 'c2')).toMatchObject({ crmId: only.id });
    expect(world.writes()).toEqual(['batchUpsert']);
  });

  it('when one of two ids sharing a contact by e-mail is deleted, then the other, updated later, is written to a contact of its own, with no error', async () => {
    await world.apply(
      'CONTACT',
      aContact('c1', { properties: { email: 'shared@example.com' } }),
      aContact('c2', { properties: { email: 'shared@example.com' } }),
    );
    const [shared] = world.crm.live('CONTACT');

    await world.apply('CONTACT', aContact('c1', { rev: 2, action: 'DELETE', properties: {} }));
    expect(world.crm.live('CONTACT')).toEqual([]);
    await world.apply('CONTACT', aContact('c2', { rev: 2, properties: { email: 'shared@example.com', firstname: 'Still here' } }));

    const [own] = world.crm.live('CONTACT');
    expect(own.id).not.toBe(shared.id);
    expect(own.properties).toMatchObject({ email: 'shared@example.com', firstname: 'Still here' });
    expect(await world.status('CONTACT', 'c2')).toMatchObject({ crmId: own.id, archived: false, appliedRev: 2 });
    expect(await world.openErrors('CONTACT', 'c2')).toEqual([]);
  });

  it.each([
    ['PRODUCT', () => aProduct('x1'), () => aProduct('x1', { rev: 2, properties: { name: 'Again' } })],
    ['DEAL', () => aDeal('x1'), () => aDeal('x1', { rev: 2, properties: { dealname: 'Again', dealstage: 'shipped' } })],
    ['LINE_ITEM', () => aLineItem('x1', 'd', 'p'), () => aLineItem('x1', 'd', 'p', { rev: 2, properties: { quantity: '3' } })],
  ] as const)(
    'when a linked %s was deleted in the CRM by hand, then its next update creates it again and links it, with no error',
    async (type, first, next) => {
      if (type === 'LINE_ITEM') {
        await world.apply('DEAL', aDeal('d'));
        await world.apply('PRODUCT', aProduct('p'));
      }
      await world.apply(type, first());
      const gone = (await world.status(type, 'x1'))!.crmId!;
      await world.crm.batchArchive(type, [gone]);

      await world.apply(type, next());

      const again = (await world.status(type, 'x1'))!;
      expect(again).toMatchObject({ crmId: expect.any(Number), appliedRev: 2 });
      expect(again.crmId).not.toBe(gone);
      expect(world.crm.live(type).map((object) => object.id)).toContain(again.crmId);
      expect(await world.openErrors(type, 'x1')).toEqual([]);
    },
  );

  it('when a linked deal was deleted in the CRM and its update lacks the stage a create needs, then it is not made again: its update fails', async () => {
    await world.apply('DEAL', aDeal('x1'));
    await world.crm.batchArchive('DEAL', [(await world.status('DEAL', 'x1'))!.crmId!]);

    await world.apply('DEAL', aDeal('x1', { rev: 2, properties: { dealname: 'No stage' } }));

    expect(world.crm.live('DEAL')).toEqual([]);
    expect((await world.openErrors('DEAL', 'x1')).map((error) => error.type)).toEqual(['UNKNOWN_ERROR']);
  });

  it('when an update is answered 404 without saying the object is gone (a wrong address, a proxy), then the contact is not made again: its update fails', async () => {
    await world.apply('CONTACT', aContact('c1'));
    const [linked] = world.crm.live('CONTACT');
    const update = jest.spyOn(world.crm, 'batchUpdate').mockRejectedValueOnce(new CrmRequestError('Not Found', 404));

    await world.apply('CONTACT', aContact('c1', { rev: 2, properties: { email: 'c1@example.com', firstname: 'Later' } }));

    expect(update).toHaveBeenCalledTimes(1);
    expect(world.crm.live('CONTACT').map((contact) => contact.id)).toEqual([linked.id]);
    expect((await world.openErrors('CONTACT', 'c1')).map((error) => error.type)).toEqual(['UNKNOWN_ERROR']);
  });

  it('when a 207 refuses the one input of a batch without naming it, then its error keeps the CRM category of the input, not the 207', async () => {
    await world.apply('CONTACT', aContact('c1'));
    jest
      .spyOn(world.crm, 'batchUpdate')
      .mockRejectedValueOnce(new CrmPartialFailure('1 of 1 failed', [], [{ index: -1, message: 'the value is not allowed', category: 'VALIDATION_ERROR' }]));

    await world.apply('CONTACT', aContact('c1', { rev: 2, properties: { email: 'c1@example.com', firstname: 'Later' } }));

    const [error] = await world.repositories.syncErrors.listForObject(
      { ...world.tenant, storeId: 'default', objectType: 'CONTACT', externalObjectId: 'c1' },
      false,
    );
    expect(error.details).toContain('the value is not allowed');
    expect(error.crm).toEqual({ category: 'VALIDATION_ERROR' });
  });

  it.each([
    ['an invalid e-mail address', aContact('bad', { properties: { email: 'not-an-address' } }), 'INVALID_EMAIL_ADDRESS'],
    ['no e-mail to create a contact with', aContact('bad', { properties: { firstname: 'x' } }), 'MISSING_REQUIRED_PROPERTY'],
    [
      'a blocking problem found by the mapper',
      aContact('bad', { problems: [{ type: 'ERROR_INVALID_DATE_PROPERTY', blocking: true, details: 'birthday is not a date' }] }),
      'ERROR_INVALID_DATE_PROPERTY',
    ],
  ])('when a contact has %s, then it fails: not written, recorded as processed, with an open error of its type', async (_case, change, type) => {
    await world.apply('CONTACT', change, aContact('good'));

    expect(world.crm.live('CONTACT').map((object) => object.properties.email)).toEqual(['good@example.com']);
    expect(await world.status('CONTACT', 'bad')).toMatchObject({ crmId: null, appliedRev: change.rev });
    expect((await world.openErrors('CONTACT', 'bad')).map((error) => error.type)).toEqual([type]);
    expect(await world.openErrors('CONTACT', 'good')).toEqual([]);
  });

  it('when a contact that failed is sent again fixed, then it is written and its error resolved', async () => {
    await world.apply('CONTACT', aContact('c1', { rev: 1, properties: { email: 'not-an-address' } }));
    await world.apply('CONTACT', aContact('c1', { rev: 2 }));

    expect(world.crm.live('CONTACT')).toHaveLength(1);
    expect(await world.openErrors('CONTACT', 'c1')).toEqual([]);
  });

  it('when a mapping names a property the CRM lacks, then the others are written and a non-blocking error says which', async () => {
    await world.apply('CONTACT', aContact('c1', { properties: { email: 'c1@example.com', shoe_size: '44' } }));

    expect(world.crm.live('CONTACT')).toHaveLength(1);
    const [error] = await world.openErrors('CONTACT', 'c1');
    expect(error.type).toBe('NO_PROPERTIES_DEFINED');
    expect(error.details).toContain('shoe_size');
  });

  it('when an object is deleted, then its CRM object is archived and its status says so; deleted and sent again, a new CRM object is made', async () => {
    await world.apply('CONTACT', aContact('c1', { rev: 1 }));
    const { crmId } = (await world.status('CONTACT', 'c1'))!;

    await world.apply('CONTACT', aContact('c1', { rev: 2, action: 'DELETE', properties: {} }));
    expect(world.crm.live('CONTACT')).toEqual([]);
    expect(await world.status('CONTACT', 'c1')).toMatchObject({ crmId, archived: true, appliedRev: 2 });

    await world.apply('CONTACT', aContact('c1', { rev: 3, generation: 1 }));
    const [again] = world.crm.live('CONTACT');
    expect(again.id).not.toBe(crmId);
    expect(await world.status('CONTACT', 'c1')).toMatchObject({ crmId: again.id, generation: 1, archived: false });
  });

  it('when a contact deleted and made again with its e-mail of before is applied in one go, then its CRM contact stays live, linked to the new generation', async () => {
    await world.apply('CONTACT', aContact('c1', { rev: 1 }));
    const [before] = world.crm.live('CONTACT');

    await world.apply('CONTACT', aContact('c1', { rev: 3, generation: 1 }));

    expect(world.crm.live('CONTACT').map((contact) => contact.id)).toEqual([before.id]);
    expect(await world.status('CONTACT', 'c1')).toMatchObject({ crmId: before.id, generation: 1, archived: false });
  });

  it('when an object deleted and made again cannot be created (no e-mail), then its CRM object of before is archived all the same', async () => {
    await world.apply('CONTACT', aContact('c1', { rev: 1 }));

    // The DELETE and the newer upsert were merged before they were applied: one change of the new generation.
    await world.apply('CONTACT', aContact('c1', { rev: 3, generation: 1, properties: { firstname: 'no e-mail' } }));

    expect(world.crm.live('CONTACT')).toEqual([]);
    expect((await world.openErrors('CONTACT', 'c1')).map((error) => error.type)).toEqual(['MISSING_REQUIRED_PROPERTY']);
    // Its status no longer offers the archived object (to an association, or as in the CRM).
    // The failed revision is processed all the same (a redelivery does not run it again).
    expect(await world.status('CONTACT', 'c1')).toMatchObject({
      crmId: expect.any(Number),
      generation: 0,
      archived: true,
      appliedRev: 3,
      lastProcessedAt: NOW,
    });
  });

  it('when the settings were disabled or deleted after changes were mapped, then the changes are held with an error, not processed, and the CRM is not called', async () => {
    const { rev: _rev, ...settings } = aStoredSettings();
    await world.repositories.settings.put(world.tenant, { ...settings, enabled: false });
    world.useCase.forgetPortals();
    await world.apply('CONTACT', aContact('c1'));
    expect((await world.openErrors('CONTACT', 'c1')).map((error) => error.type)).toEqual(['SETTINGS_NOT_ENABLED']);

    await world.repositories.settings.remove(settingsOwner(world.tenant));
    await world.apply('CONTACT', aContact('c2'));
    expect((await world.openErrors('CONTACT', 'c2')).map((error) => error.type)).toEqual(['NO_SYNC_SETTINGS']);

    expect(await world.status('CONTACT', 'c1')).toBeNull();
    expect(world.writes()).toEqual([]);
  });

  it('when a portal is disabled or its install not done, then its changes are held with an error, not processed, and the CRM is not called', async () => {
    await world.repositories.portals.setActive(world.portal.portalId, false);
    await world.apply('CONTACT', aContact('c1'));
    expect((await world.openErrors('CONTACT', 'c1')).map((error) => error.type)).toEqual(['INACTIVE_PORTAL']);

    await world.repositories.portals.setActive(world.portal.portalId, true);
    await world.repositories.ecommerceInstalls.markUninstalled(world.tenant, NOW);
    world.useCase.forgetPortals();
    await world.apply('CONTACT', aContact('c2'));
    expect((await world.openErrors('CONTACT', 'c2')).map((error) => error.type)).toEqual(['PORTAL_NOT_SYNC_ENABLED']);

    expect(await world.status('CONTACT', 'c1')).toBeNull();
    expect(await world.status('CONTACT', 'c2')).toBeNull();
    expect(world.writes()).toEqual([]);
  });

  it('when deals move into and out of checkout_pending, then the abandoned-checkout sweep sees only those still pending', async () => {
    await world.apply(
      'DEAL',
      aDeal('d1', { properties: { dealname: 'd1', dealstage: 'checkout_pending' } }),
      aDeal('d2', { properties: { dealname: 'd2', dealstage: 'checkout_pending' } }),
    );
    await world.apply('DEAL', aDeal('d2', { rev: 2 }));

    const pending = await world.repositories.checkouts.due(NOW, 10);
    expect(pending.map((checkout) => [checkout.externalObjectId, checkout.crmId])).toEqual([['d1', (await world.status('DEAL', 'd1'))!.crmId]]);
  });

  it('when a pending deal is updated with its stage cleared or refused, then the CRM keeps checkout_pending and the sweep still sees it', async () => {
    await world.apply(
      'DEAL',
      aDeal('d1', { properties: { dealname: 'd1', dealstage: 'checkout_pending' } }),
      aDeal('d2', { properties: { dealname: 'd2', dealstage: 'checkout_pending' } }),
    );
    await world.apply(
      'DEAL',
      aDeal('d1', { rev: 2, properties: { dealname: 'd1 renamed', dealstage: null } }),
      aDeal('d2', { rev: 2, properties: { dealname: 'd2', dealstage: 'closedwon' } }),
    );

    const pending = await world.repositories.checkouts.due(NOW, 10);
    expect(pending.map((checkout) => checkout.externalObjectId).sort()).toEqual(['d1', 'd2']);
    const [d1] = await world.crm.batchRead('DEAL', [(await world.status('DEAL', 'd1'))!.crmId!], ['dealname', 'dealstage']);
    expect(d1.properties).toEqual({ dealname: 'd1 renamed', dealstage: 'checkout_pending' });
    expect((await world.openErrors('DEAL', 'd1')).map((error) => error.type)).toEqual(['INVALID_DEAL_STAGE']);
    expect((await world.openErrors('DEAL', 'd2')).map((error) => error.type)).toEqual(['INVALID_DEAL_STAGE']);
  });

  it('when a line item, its deal and its product come in one batch, then the deal and product are written first, the line item is associated with the deal and names the product by hs_product_id', async () => {
    await world.useCase.execute([
      world.message('LINE_ITEM', [aLineItem('li', 'd', 'p')]),
      world.message('DEAL', [aDeal('d')]),
      world.message('PRODUCT', [aProduct('p')]),
    ]);

    const lineItem = (await world.status('LINE_ITEM', 'li'))!;
    expect(world.crm.associationsOf('LINE_ITEM', lineItem.crmId!, 'DEAL')).toEqual([(await world.status('DEAL', 'd'))!.crmId]);
    expect(world.crm.live('LINE_ITEM').find((object) => object.id === lineItem.crmId)?.properties.hs_product_id).toBe(
      String((await world.status('PRODUCT', 'p'))!.crmId),
    );
  });
});
