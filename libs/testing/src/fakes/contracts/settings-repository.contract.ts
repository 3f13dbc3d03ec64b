import { settingsOwner, type SettingsRepository } from '@ecomm-sync/data-access';
import { aPropertyMapping } from '../../support';
import { anAppTenant, aStoredSettings, aTenant } from '../builders';
import type { PublicOf } from '../public-of';

type Settings = PublicOf<SettingsRepository>;
const { rev: _rev, ...record } = aStoredSettings();

/** What the use cases rely on from SettingsRepository; run against the fake and the real one. */
export function describeSettingsRepositoryContract(name: string, make: () => Settings | Promise<Settings>): void {
  describe(`SettingsRepository contract: ${name}`, () => {
    let settings: Settings;
    beforeEach(async () => {
      settings = await make();
    });

    it('when a put leaves a re-apply pending, then the next put answers it with its own until it is cleared at the newest revision', async () => {
      const owner = settingsOwner(anAppTenant());
      expect((await settings.putByOwner(owner, record, { reapplyPending: ['CONTACT'] })).reapplyPending).toEqual(['CONTACT']);
      const second = await settings.putByOwner(owner, record, { reapplyPending: ['DEAL'] });
      expect([...second.reapplyPending].sort()).toEqual(['CONTACT', 'DEAL']);

      await settings.clearReapplyPending(owner, second.rev - 1); // an older revision clears nothing
      expect([...(await settings.putByOwner(owner, record)).reapplyPending].sort()).toEqual(['CONTACT', 'DEAL']);
      const newest = await settings.putByOwner(owner, record);
      await settings.clearReapplyPending(owner, newest.rev);
      expect((await settings.putByOwner(owner, record)).reapplyPending).toEqual([]);
    });

    it('when settings are put over a revision, then only over that one: a put over one overtaken answers null and changes nothing', async () => {
      const owner = settingsOwner(anAppTenant());
      const first = await settings.putByOwner(owner, record);
      const second = await settings.putByOwner(owner, { ...record, enabled: false });

      expect(await settings.putByOwner(owner, record, { expectedRev: first.rev, reapplyPending: ['CONTACT'] })).toBeNull();
      expect(await settings.getByOwner(owner)).toMatchObject({ enabled: false, rev: second.rev });

      const third = await settings.putByOwner(owner, record, { expectedRev: second.rev, reapplyPending: ['DEAL'] });
      expect(third).toMatchObject({ enabled: true, rev: second.rev + 1, reapplyPending: ['DEAL'] });
    });

    it('when an owner has no settings, then none are read', async () => {
      expect(await settings.getByOwner(settingsOwner(anAppTenant()))).toBeNull();
    });

    it('when settings are put, then the first revision is 1 and every put after that raises it by one', async () => {
      const owner = settingsOwner(anAppTenant());
      const revisions = [];
      for (let i = 0; i < 3; i++) revisions.push((await settings.putByOwner(owner, record)).rev);
      expect(revisions).toEqual([1, 2, 3]);
    });

    it('when settings are put for a tenant, then they are read by its owner key, the application in application mode, the portal in direct mode', async () => {
      for (const tenant of [anAppTenant(), aTenant()]) {
        const stored = await settings.put(tenant, { ...record, enabled: false });
        expect(await settings.getByOwner(settingsOwner(tenant))).toEqual({ ...stored, mappings: expect.any(Object) });
        expect(await settings.get(tenant)).toMatchObject({ enabled: false, rev: stored.rev });
      }
      const appTenant = anAppTenant();
      await settings.put(appTenant, record);
      expect(await settings.get({ ...appTenant, portalId: appTenant.portalId + 1 })).toMatchObject({ rev: 1 });
    });

    it('when settings name mappings of some object types, then they read with every type, the others empty, and a put replaces them all', async () => {
      const owner = settingsOwner(anAppTenant());
      const mapping = aPropertyMapping({ externalPropertyName: 'qty', crmPropertyName: 'quantity', dataType: 'NUMBER' });
      await settings.putByOwner(owner, { ...record, mappings: { DEAL: [aPropertyMapping()], LINE_ITEM: [mapping] } });
      await settings.putByOwner(owner, { ...record, webhookUri: null, mappings: { LINE_ITEM: [mapping] } });
      expect(await settings.getByOwner(owner)).toEqual({
        enabled: true,
        importOnInstall: false,
        webhookUri: null,
        rev: 2,
        mappings: { CONTACT: [], DEAL: [], PRODUCT: [], LINE_ITEM: [mapping] },
      });
    });

    it('when the import address is put beside settings, then it alone changes, at the same revision, and a put that keeps it leaves it', async () => {
      const owner = settingsOwner(anAppTenant());
      const { reapplyPending: _pending, ...stored } = await settings.putByOwner(owner, { ...record, webhookUri: null });
      expect(await settings.putWebhookUri(owner, 'https://shop.example.com/b')).toBe('https://shop.example.com/b');
      expect(await settings.getByOwner(owner)).toEqual({ ...stored, mappings: expect.any(Object), webhookUri: 'https://shop.example.com/b' });
      expect(await settings.webhookUriOf(owner)).toBe('https://shop.example.com/b');
      expect(await settings.findWithAddress(owner)).toEqual({
        settings: { ...stored, mappings: record.mappings, webhookUri: 'https://shop.example.com/b' },
        webhookUri: 'https://shop.example.com/b',
      });
      expect(await settings.findWithAddress(settingsOwner(anAppTenant()))).toEqual({ settings: null, webhookUri: null });
      // A put that keeps the address leaves it, whatever the settings it writes carry.
      expect((await settings.putByOwner(owner, { ...record, webhookUri: null }, { keepWebhookUri: true })).webhookUri).toBe('https://shop.example.com/b');
    });

    it('when the import address is put without settings, then it is kept and no settings are made; settings put later keep it or replace it', async () => {
      const owner = settingsOwner(anAppTenant());
      expect(await settings.putWebhookUri(owner, 'https://shop.example.com/a')).toBe('https://shop.example.com/a');
      expect(await settings.getByOwner(owner)).toBeNull();
      expect(await settings.webhookUriOf(owner)).toBe('https://shop.example.com/a');
      expect(await settings.findWithAddress(owner)).toEqual({ settings: null, webhookUri: 'https://shop.example.com/a' });
      const other = settingsOwner(anAppTenant());
      await settings.putWebhookUri(other, 'https://shop.example.com/o');
      expect(await settings.remove(other, { keepWebhookUri: true })).toBe(false); // no settings to remove: the address stays
      expect(await settings.webhookUriOf(other)).toBe('https://shop.example.com/o');
      // The DELETE raised the tombstone's revision (0 to 1): the settings go on above it.
      expect((await settings.putByOwner(other, record, { keepWebhookUri: true })).rev).toBe(2);

      const kept = await settings.putByOwner(owner, { ...record, webhookUri: null }, { keepWebhookUri: true });
      expect(kept).toMatchObject({ webhookUri: 'https://shop.example.com/a', rev: 1 });
      const replaced = await settings.putByOwner(owner, { ...record, webhookUri: null });
      expect(await settings.webhookUriOf(owner)).toBeNull();
      expect(await settings.findWithAddress(owner)).toEqual({
        settings: { ...record, webhookUri: null, rev: replaced.rev },
        webhookUri: null,
      });
    });

    it('when settings are removed keeping the address (v1), then it stays for the import start; a removal that does not (v2) takes it, tombstone or not', async () => {
      const owner = settingsOwner(anAppTenant());
      await settings.putByOwner(owner, { ...record, webhookUri: 'https://shop.example.com/import' });

      expect(await settings.remove(owner, { keepWebhookUri: true })).toBe(true);
      expect(await settings.getByOwner(owner)).toBeNull();
      expect(await settings.webhookUriOf(owner)).toBe('https://shop.example.com/import');
      expect(await settings.findWithAddress(owner)).toEqual({ settings: null, webhookUri: 'https://shop.example.com/import' });
      expect(await settings.remove(owner, { keepWebhookUri: true })).toBe(false); // none to remove: the address stays
      expect(await settings.webhookUriOf(owner)).toBe('https://shop.example.com/import');

      expect(await settings.remove(owner)).toBe(false);
      expect(await settings.webhookUriOf(owner)).toBeNull();
    });

    it('when the import address is put after a removal, then settings made again still go on above the removed revision', async () => {
      const owner = settingsOwner(anAppTenant());
      const first = await settings.putByOwner(owner, record);
      await settings.remove(owner);
      await settings.putWebhookUri(owner, 'https://shop.example.com/c');
      expect((await settings.putByOwner(owner, record, { keepWebhookUri: true })).rev).toBeGreaterThan(first.rev + 1);
    });

    it('when the revision of enabled settings is raised, then it alone grows, with the types pending; other settings are not raised', async () => {
      const owner = settingsOwner(anAppTenant());
      const { reapplyPending: _none, ...stored } = await settings.putByOwner(owner, {
        ...record,
        enabled: true,
        webhookUri: 'https://shop.example.com/import',
      });

      expect(await settings.raiseRevision(owner, ['CONTACT', 'DEAL'])).toEqual({ rev: stored.rev + 1, reapplyPending: ['CONTACT', 'DEAL'] });
      expect(await settings.getByOwner(owner)).toEqual({ ...stored, mappings: expect.any(Object), rev: stored.rev + 1 });

      const disabled = settingsOwner(anAppTenant());
      await settings.putByOwner(disabled, { ...record, enabled: false });
      const removed = settingsOwner(anAppTenant());
      await settings.putByOwner(removed, { ...record, enabled: true });
      await settings.remove(removed);
      for (const owner of [disabled, removed, settingsOwner(anAppTenant())]) expect(await settings.raiseRevision(owner, ['CONTACT'])).toBeNull();
      expect(await settings.getByOwner(removed)).toBeNull();
    });

    it('when settings are removed, then they are gone once, and new ones go on above the removed revision without its pending re-apply', async () => {
      const owner = settingsOwner(anAppTenant());
      await settings.putByOwner(owner, record, { reapplyPending: ['DEAL'] });
      await settings.putByOwner(owner, { ...record, importOnInstall: true, webhookUri: 'https://shop.example.com/import' });
      expect(await settings.remove(owner)).toBe(true);
      expect(await settings.remove(owner)).toBe(false);
      expect(await settings.getByOwner(owner)).toBeNull();
      expect(await settings.webhookUriOf(owner)).toBeNull();
      const again = await settings.putByOwner(owner, { ...record, webhookUri: null, mappings: {} });
      expect(again.rev).toBeGreaterThan(2);
      expect(again.reapplyPending).toEqual([]);
      expect(await settings.getByOwner(owner)).toEqual({
        enabled: true,
        importOnInstall: false,
        webhookUri: null,
        rev: again.rev,
        mappings: { CONTACT: [], DEAL: [], PRODUCT: [], LINE_ITEM: [] },
      });
    });
  });
}
