import mongoose from 'mongoose';
import type { Tenant } from '@ecomm-sync/contracts';
import { compareRevisions, emptyObjectState, mergeMessage, STALLED_RELEASE_MS } from '@ecomm-sync/domain';
import { aSyncBatch, testInfrastructure, uniqueName, waitFor } from '../../support';
import { moveImport } from '../../fakes';
import { connectDatabase, type Database, hashSecret, keyString, type ObjectSync, SecretBox } from '@ecomm-sync/data-access';

const { mongoUrl } = testInfrastructure();

describe('repositories against the MongoDB-wire server', () => {
  let database: Database;
  let dbName: string;
  let tenant: Tenant;
  let nextPortal = 1;

  beforeAll(async () => {
    dbName = uniqueName('repos').replace(/-/g, '_');
    database = await connectDatabase(mongoUrl, dbName);
  });

  beforeEach(() => {
    tenant = { portalId: nextPortal++, appId: null };
  });

  afterAll(async () => {
    await database.connection.dropDatabase();
    await database.close();
  });

  const repos = () => database.repositories;
  const stateWith = (changedAt: number, properties: Record<string, string>) =>
    mergeMessage(emptyObjectState(), { externalObjectId: 'x', action: 'UPSERT', changedAt, properties }, 0).state;

  describe('portals', () => {
    const box = new SecretBox('repository-test-secrets-key');
    // What the repository stores is opaque to it: one context serves every value here.
    const seal = (secret: string) => box.seal(secret, 'repository-test');
    const open = (sealed: string) => box.open(sealed, 'repository-test');
    const rawPortal = (portalId: number) => database.connection.collection('portals').findOne({ portalId });

    it('refuses a second portal with the same id', async () => {
      await repos().portals.create({ portalId: 9002, name: 'p', crmTokenSealed: seal('t') });
      await expect(repos().portals.create({ portalId: 9002, name: 'p', crmTokenSealed: seal('t') })).rejects.toThrow(/duplicate key/i);
    });

    it('when a portal is created, then its built-in CRM token is stored sealed, never in clear', async () => {
      const token = 'crm-plain-token-9003-abcdefgh';
      await expect(repos().portals.create({ portalId: 9003, name: 'p', crmTokenSealed: token })).rejects.toThrow(/sealed/);
      await repos().portals.create({ portalId: 9003, name: 'p', crmTokenSealed: seal(token) });

      const raw = await rawPortal(9003);
      expect(JSON.stringify(raw)).not.toContain(token);
      expect(raw).not.toHaveProperty('crmToken');
      const portal = await repos().portals.findById(9003);
      expect(open((portal!.builtinCrmToken as { sealed: string }).sealed)).toBe(token);
      expect(portal!.crmConnection).toBeNull();
    });

    it('when a connection with secrets in clear is stored, then it is refused; sealed, it is stored as given', async () => {
      await repos().portals.create({ portalId: 9004, name: 'p', crmTokenSealed: seal('t') });
      const hosted = (tokenSealed: string) => ({
        kind: 'hosted' as const,
        baseUrl: 'https://crm.example.com',
        auth: { type: 'private-app' as const, tokenSealed },
        limits: { burstPer10s: 100, dailyCap: 250_000, timeZone: 'UTC', searchPerSecond: 4 },
        changedAt: 1,
      });
      await expect(repos().portals.setCrmConnection(9004, hosted('pat-in-clear'))).rejects.toThrow(/sealed/);

      expect(await repos().portals.setCrmConnection(9004, hosted(seal('pat-in-clear')))).toBe(true);

      expect(JSON.stringify(await rawPortal(9004))).not.toContain('pat-in-clear');
      expect(await repos().portals.setCrmConnection(424242, hosted(seal('x')))).toBe(false);
    });

    it('when a document holds its token in clear (before decision 22), then it reads as such and sealing it removes the clear one', async () => {
      await database.connection.collection('portals').insertOne({ portalId: 9005, name: 'old', active: true, crmToken: 'crm-legacy-9005-token' });
      expect((await repos().portals.findById(9005))!.builtinCrmToken).toEqual({ plaintext: 'crm-legacy-9005-token' });
      expect(await repos().portals.withPlaintextCrmToken()).toContainEqual({ portalId: 9005, crmToken: 'crm-legacy-9005-token' });

      expect(await repos().portals.sealCrmToken(9005, 'another-token', seal('another-token'))).toBe(false);
      expect(await repos().portals.sealCrmToken(9005, 'crm-legacy-9005-token', seal('crm-legacy-9005-token'))).toBe(true);

      const raw = await rawPortal(9005);
      expect(JSON.stringify(raw)).not.toContain('crm-legacy-9005-token');
      expect(open(raw!.crmTokenSealed as string)).toBe('crm-legacy-9005-token');
      expect(await repos().portals.withPlaintextCrmToken()).not.toContainEqual(expect.objectContaining({ portalId: 9005 }));
    });

    it('when an OAuth refresh is saved, then only over the refresh token it used', async () => {
      await repos().portals.create({ portalId: 9006, name: 'p', crmTokenSealed: seal('t') });
      const used = seal('ort-1');
      await repos().portals.setCrmConnection(9006, {
        kind: 'hosted',
        baseUrl: 'https://crm.example.com',
        auth: { type: 'oauth', clientId: 'client', clientSecretSealed: seal('client-secret'), refreshTokenSealed: used },
        limits: { burstPer10s: 190, dailyCap: 625_000, timeZone: 'UTC', searchPerSecond: 4 },
        changedAt: 1,
      });
      const token = { accessTokenSealed: seal('oat-1'), expiresAt: 5000, refreshedAt: 1000 };
      const rotated = seal('ort-2');

      expect(await repos().portals.saveOAuthRefresh(9006, used, rotated, token)).toBe(true);
      expect(await repos().portals.saveOAuthRefresh(9006, used, seal('ort-3'), token)).toBe(false);

      const portal = await repos().portals.findById(9006);
      expect(portal!.crmConnection).toMatchObject({ auth: { refreshTokenSealed: rotated } });
      expect(portal!.crmOAuthToken).toEqual(token);
      expect(JSON.stringify(await rawPortal(9006))).not.toMatch(/ort-|oat-|client-secret/);
    });
  });

  describe('ids of portals, developers and applications', () => {
    it('when many are made at once, then each gets its own id', async () => {
      const portalIds = await Promise.all(Array.from({ length: 200 }, () => repos().portals.nextPortalId()));
      const appIds = await Promise.all(Array.from({ length: 200 }, () => repos().accounts.nextId('appId')));
      expect(new Set(portalIds).size).toBe(200);
      expect(new Set(appIds).size).toBe(200);
    });
  });

  describe('credentials', () => {
    it('resolves a credential by its secret and stores only a hash of it', async () => {
      const { secret, credential } = await repos().credentials.issue('portal-key', { portalId: 9001 }, 1000);
      expect(secret).toMatch(/^pk-/);
      expect(await repos().credentials.resolve(secret)).toEqual(credential);
      expect(await repos().credentials.resolve(`${secret}x`)).toBeNull();
      const raw = await database.connection.collection('credentials').findOne({ credentialId: credential.credentialId });
      expect(JSON.stringify(raw)).not.toContain(secret);
    });

    it('revokes by public id, and by owner keeping the newest', async () => {
      const first = await repos().credentials.issue('developer-key', { developerId: 42 }, 1);
      const second = await repos().credentials.issue('developer-key', { developerId: 42 }, 2);
      expect(await repos().credentials.revokeWhere({ developerId: 42, kinds: ['developer-key'] }, second.credential.credentialId)).toBe(1);
      expect(await repos().credentials.resolve(first.secret)).toBeNull();
      expect(await repos().credentials.revoke(second.credential.credentialId)).toMatchObject({ kind: 'developer-key', developerId: 42 });
      expect(await repos().credentials.resolve(second.secret)).toBeNull();
      expect(await repos().credentials.revoke(second.credential.credentialId)).toBeNull();
    });
    // Spending refresh tokens (once, at once): the repository contract (fakes/contracts).

    it('keeps a spent refresh token where a build from before kept ones (a rolling upgrade, a rollback) does not find a refresh token', async () => {
      const { secret } = await repos().credentials.issue('refresh-token', { portalId: 9003, appId: 'a1' }, 1);
      await repos().credentials.spendRefreshToken(secret, { at: 2, accessTokenId: 'cred_a', refreshTokenId: 'cred_r' });
      // The look-up such a build spends a refresh token with (findOneAndDelete by hash and kind).
      expect(await database.connection.collection('credentials').findOne({ _id: hashSecret(secret), kind: 'refresh-token' } as never)).toBeNull();
      expect(await repos().credentials.resolve(secret)).toMatchObject({ kind: 'refresh-token', spent: { at: 2 } });
    });
  });

  describe('leases', () => {
    it('gives a lease to one holder at a time, renews it for its holder, and hands it over once it expired', async () => {
      const checkouts = repos().checkouts;
      const name = `lease-${tenant.portalId}`;
      const racers = await Promise.all(['a', 'b', 'c'].map((holder) => checkouts.acquireLease(name, holder, 1000, 500)));
      expect(racers.filter(Boolean)).toHaveLength(1);
      const winner = ['a', 'b', 'c'][racers.indexOf(true)];
      const other = winner === 'a' ? 'b' : 'a';
      expect(await checkouts.acquireLease(name, winner, 1400, 500)).toBe(true); // renewed until 1900
      expect(await checkouts.acquireLease(name, other, 1800, 500)).toBe(false);
      expect(await checkouts.acquireLease(name, other, 1901, 500)).toBe(true);
      await checkouts.releaseLease(name, other);
      expect(await checkouts.acquireLease(name, winner, 1902, 500)).toBe(true);
    });
    // Pending checkouts: the checkout repository contract (libs/testing/src/fakes) runs against this repository.
  });

  describe('raw messages', () => {
    it('appends a batch once, however often it is delivered', async () => {
      const batch = aSyncBatch({
        tenant,
        messages: [1, 2, 3].map((n) => ({ externalObjectId: `o${n}`, action: 'UPSERT' as const, changedAt: n, properties: { 'a.b': n, $c: 'x' } })),
      });
      await repos().rawMessages.append(batch);
      await repos().rawMessages.append(batch);
      expect(await repos().rawMessages.countForBatch(batch.batchId)).toBe(3);
    });
  });

  describe('object states', () => {
    it('inserts a new state, then updates it only from the revision it was read at', async () => {
      const before = Date.now();
      const first = await repos().objectStates.saveMany({ tenant, storeId: 'default', objectType: 'CONTACT' }, [
        { externalObjectId: 'c1', state: stateWith(1, { a: '1' }), expectedRev: null },
      ]);
      const rev = first.saved.get('c1')!;
      expect(first.conflicts).toEqual([]);
      expect(rev).toBeGreaterThanOrEqual(before); // revisions follow the clock (nextRevision)

      const second = await repos().objectStates.saveMany({ tenant, storeId: 'default', objectType: 'CONTACT' }, [
        { externalObjectId: 'c1', state: stateWith(2, { a: '2' }), expectedRev: rev },
      ]);
      const newer = second.saved.get('c1')!;
      expect(newer).toBeGreaterThan(rev);

      const stale = await repos().objectStates.saveMany({ tenant, storeId: 'default', objectType: 'CONTACT' }, [
        { externalObjectId: 'c1', state: stateWith(3, { a: 'lost' }), expectedRev: rev },
      ]);
      expect(stale.conflicts).toEqual(['c1']);

      const stored = await repos().objectStates.findMany({ tenant, storeId: 'default', objectType: 'CONTACT' }, ['c1']);
      expect(stored.get('c1')).toMatchObject({ rev: newer, state: { properties: { a: { value: '2', changedAt: 2 } } } });
    });

    it('when a stored state vanished and the object is merged anew, then its revision starts above every revision it had reached', async () => {
      const created = await repos().objectStates.saveMany({ tenant, storeId: 'default', objectType: 'CONTACT' }, [
        { externalObjectId: 'gone', state: stateWith(1, { a: '1' }), expectedRev: null },
      ]);
      let rev = created.saved.get('gone')!;
      for (let n = 2; n <= 4; n++) {
        rev = (
          await repos().objectStates.saveMany({ tenant, storeId: 'default', objectType: 'CONTACT' }, [
            { externalObjectId: 'gone', state: stateWith(n, { a: String(n) }), expectedRev: rev },
          ])
        ).saved.get('gone')!;
      }
      await database.connection.collection('object_states').deleteOne({ externalObjectId: 'gone', portalId: tenant.portalId });
      await waitFor(async () => Date.now() > rev, { timeoutMs: 1000, message: 'the clock to pass the revision reached' });

      const again = await repos().objectStates.saveMany({ tenant, storeId: 'default', objectType: 'CONTACT' }, [
        { externalObjectId: 'gone', state: stateWith(5, { a: '5' }), expectedRev: null },
      ]);
      expect(again.saved.get('gone')).toBeGreaterThan(rev);
    });

    it('lets exactly one of two concurrent first writers win', async () => {
      const write = (value: string) =>
        repos().objectStates.saveMany({ tenant, storeId: 'default', objectType: 'DEAL' }, [
          { externalObjectId: 'd1', state: stateWith(1, { a: value }), expectedRev: null },
        ]);
      const results = await Promise.all([write('x'), write('y')]);
      expect(results.filter((result) => result.conflicts.length === 0)).toHaveLength(1);
      expect(results.filter((result) => result.conflicts.length === 1)).toHaveLength(1);
    });

    it('keeps tenants apart', async () => {
      await repos().objectStates.saveMany({ tenant, storeId: 'default', objectType: 'CONTACT' }, [
        { externalObjectId: 'same', state: stateWith(1, { a: 'mine' }), expectedRev: null },
      ]);
      const other = { portalId: tenant.portalId + 1000, appId: null };
      expect((await repos().objectStates.findMany({ tenant: other, storeId: 'default', objectType: 'CONTACT' }, ['same'])).size).toBe(0);
      expect((await repos().objectStates.findMany({ tenant: { ...tenant, appId: 'app-1' }, storeId: 'default', objectType: 'CONTACT' }, ['same'])).size).toBe(
        0,
      );
    });
  });

  describe('object syncs: claims and records', () => {
    const key = (externalObjectId: string, objectType: 'CONTACT' | 'DEAL' = 'CONTACT') => ({ ...tenant, storeId: 'default', objectType, externalObjectId });
    const recordOf = (externalObjectId: string, rev: number, settingsRev = 1) => ({
      externalObjectId,
      rev,
      settingsRev,
      processedAt: rev * 10,
      changedAt: rev,
    });
    const newer =
      (rev: number, settingsRev = 1) =>
      (_id: string, sync: ObjectSync | undefined) =>
        compareRevisions({ rev, settingsRev }, { rev: sync?.appliedRev ?? 0, settingsRev: sync?.appliedSettingsRev ?? 0 }) > 0;
    /** Claims, then records: what one writer does around its CRM write. */
    const write = async (ids: string[], rev: number, settingsRev = 1, objectType: 'CONTACT' | 'DEAL' = 'CONTACT') => {
      const seen = await repos().objectSyncs.findMany({ tenant, storeId: 'default', objectType }, ids);
      const claim = await repos().objectSyncs.claim({ tenant, storeId: 'default', objectType }, seen, ids, newer(rev, settingsRev));
      const recorded = await repos().objectSyncs.recordProcessed(
        { tenant, storeId: 'default', objectType },
        [...claim.claimed.keys()].map((id) => recordOf(id, rev, settingsRev)),
        claim,
      );
      return { notNewer: claim.notNewer, ...recorded };
    };

    it('when a revision is written, again, and then an older one, then only the first lands and the others are not claimed', async () => {
      expect(await write(['c1'], 2)).toEqual({ notNewer: [], superseded: [], contended: [] });
      expect(await write(['c1'], 2)).toEqual({ notNewer: ['c1'], superseded: [], contended: [] }); // redelivery
      expect(await write(['c1'], 1)).toEqual({ notNewer: ['c1'], superseded: [], contended: [] }); // older
      expect(await repos().objectSyncs.findOne(key('c1'))).toMatchObject({ appliedRev: 2, lastProcessedAt: 20 });
    });

    it('when a re-map of the same state revision has newer settings, then it lands, and an older one does not', async () => {
      expect((await write(['d1'], 3, 1, 'DEAL')).notNewer).toEqual([]);
      expect((await write(['d1'], 3, 2, 'DEAL')).notNewer).toEqual([]);
      expect((await write(['d1'], 3, 1, 'DEAL')).notNewer).toEqual(['d1']);
      expect(await repos().objectSyncs.findOne(key('d1', 'DEAL'))).toMatchObject({ appliedRev: 3, appliedSettingsRev: 2 });
    });

    it('when two writers claim the same objects one after the other, then the first cannot record and learns whether it was superseded or must write again', async () => {
      const ids = ['s1', 's2'];
      await write(ids, 1); // statuses exist: claims are compare and set on their stamps
      const seen = await repos().objectSyncs.findMany({ tenant, storeId: 'default', objectType: 'CONTACT' }, ids);
      const first = await repos().objectSyncs.claim({ tenant, storeId: 'default', objectType: 'CONTACT' }, seen, ids, newer(5));
      expect([...first.claimed.keys()]).toEqual(ids);
      // A second writer claims both while the first writes: newer for s1, older for s2.
      await write(['s1'], 6);
      await write(['s2'], 4);

      expect(
        await repos().objectSyncs.recordProcessed({ tenant, storeId: 'default', objectType: 'CONTACT' }, [recordOf('s1', 5), recordOf('s2', 5)], first),
      ).toEqual({
        superseded: ['s1'], // a newer revision is recorded: the newest state must be written again
        contended: ['s2'], // only an older one is recorded, and its write may have landed last: write again
      });
      expect(await repos().objectSyncs.findOne(key('s1'))).toMatchObject({ appliedRev: 6 });
      expect(await repos().objectSyncs.findOne(key('s2'))).toMatchObject({ appliedRev: 4 });
    });

    it('when two writers make the first record of the same new objects, then only one insert lands and the other learns whether it was superseded or must write again', async () => {
      const ids = ['n1', 'n2'];
      const none = await repos().objectSyncs.findMany({ tenant, storeId: 'default', objectType: 'CONTACT' }, ids);
      const first = await repos().objectSyncs.claim({ tenant, storeId: 'default', objectType: 'CONTACT' }, none, ids, newer(5));
      expect([...first.firstRecords]).toEqual(ids); // no status yet: no claim write
      await write(['n1'], 6);
      await write(['n2'], 4);

      expect(
        await repos().objectSyncs.recordProcessed({ tenant, storeId: 'default', objectType: 'CONTACT' }, [recordOf('n1', 5), recordOf('n2', 5)], first),
      ).toEqual({
        superseded: ['n1'],
        contended: ['n2'],
      });
      expect(await repos().objectSyncs.findOne(key('n1'))).toMatchObject({ appliedRev: 6 });
    });

    it('when many writers claim and record revisions of the same objects at once, and write again when contended, then each object ends at its newest revision', async () => {
      const ids = ['m1', 'm2', 'm3'];
      const revisions = [7, 2, 9, 4, 1, 8, 3, 6, 5];
      const settle = async (rev: number) => {
        let pending = ids;
        for (let round = 0; pending.length > 0; round++) {
          if (round === 20) throw new Error(`revision ${rev} still contended after 20 rounds`);
          // Claims that keep losing throw, and the applier's message is retried: the same here.
          pending = await write(pending, rev).then(
            (result) => result.contended,
            () => pending,
          );
        }
      };
      await Promise.all(revisions.map(settle));
      for (const id of ids) expect(await repos().objectSyncs.findOne(key(id))).toMatchObject({ appliedRev: 9, lastProcessedAt: 90 });
    });
  });

  describe('re-apply jobs and paged states', () => {
    it('starts one job per settings revision, supersedes older ones, and advances only while running', async () => {
      const owner = `portal:${tenant.portalId}`;
      const first = await repos().reapplyJobs.start(owner, 1, ['CONTACT'], 10);
      expect(await repos().reapplyJobs.start(owner, 1, ['CONTACT'], 11)).toMatchObject({ jobId: first.jobId, startedAt: 10 });
      const second = await repos().reapplyJobs.start(owner, 2, ['DEAL'], 20);
      expect(await repos().reapplyJobs.find(first.jobId)).toMatchObject({ status: 'superseded' });
      expect(await repos().reapplyJobs.advance(first.jobId, { typeIndex: 0, lastId: null, processedDelta: 5 }, 21)).toBe(false);
      expect(await repos().reapplyJobs.advance(second.jobId, { typeIndex: 1, lastId: null, processedDelta: 5 }, 22)).toBe(true);
      expect(await repos().reapplyJobs.latest(owner)).toMatchObject({ settingsRev: 2, status: 'running', typeIndex: 1, objectsProcessed: 5 });
    });

    it('pages through the objects of a settings owner in _id order, and only theirs', async () => {
      for (let n = 0; n < 5; n++) {
        await repos().objectStates.saveMany({ tenant, storeId: n % 2 ? 'a' : 'b', objectType: 'PRODUCT' }, [
          { externalObjectId: `p${n}`, state: stateWith(1, { a: String(n) }), expectedRev: null },
        ]);
      }
      await repos().objectStates.saveMany({ tenant: { ...tenant, appId: 'app-9' }, storeId: 'a', objectType: 'PRODUCT' }, [
        { externalObjectId: 'other', state: stateWith(1, {}), expectedRev: null },
      ]);
      const filter = { portalId: tenant.portalId, appId: null };
      const pages = async (owner: { appId: string } | { portalId: number; appId: null }, afterId: string | null, size: number) => {
        const taken = [];
        for await (const page of repos().objectStates.pagesForOwner(owner, 'PRODUCT', afterId, size)) taken.push(page);
        return taken;
      };
      const [first, second] = await pages(filter, null, 3);
      expect(second).toHaveLength(2); // the last page holds what is left
      const [rest] = await pages(filter, first[2].id, 3); // resuming after the first page's last id
      // Every object once, in one total order (by _id; not necessarily the order of creation).
      expect([...first, ...rest].map((o) => o.externalObjectId).sort()).toEqual(['p0', 'p1', 'p2', 'p3', 'p4']);
      expect(rest).toHaveLength(2);
      expect(first.find((o) => o.externalObjectId === 'p3') ?? rest.find((o) => o.externalObjectId === 'p3')).toMatchObject({
        storeId: 'a',
        tenant,
        rev: expect.any(Number),
        state: { properties: { a: { value: '3' } } },
      });
      expect((await pages({ appId: 'app-9' }, null, 10)).flat().map((o) => o.externalObjectId)).toEqual(['other']);
    });
  });

  describe('sync errors', () => {
    const key = () => ({ ...tenant, storeId: 'default', objectType: 'CONTACT' as const, externalObjectId: 'c1' });
    const error = (rev: number, erroredAt: number) => ({
      externalObjectId: 'c1',
      rev,
      settingsRev: 1,
      type: 'INVALID_EMAIL_ADDRESS' as const,
      details: `rev ${rev}`,
      changedAt: rev,
      erroredAt,
    });

    it('records an error once per revision and keeps only the newest open', async () => {
      await repos().syncErrors.record({ tenant, storeId: 'default', objectType: 'CONTACT' }, [error(1, 100)]);
      await repos().syncErrors.record({ tenant, storeId: 'default', objectType: 'CONTACT' }, [error(1, 100)]);
      await repos().syncErrors.record({ tenant, storeId: 'default', objectType: 'CONTACT' }, [error(2, 200)]);
      expect((await repos().syncErrors.listForObject(key(), false)).map((e) => e.details)).toEqual(['rev 2']);
      expect((await repos().syncErrors.listForObject(key(), true)).map((e) => [e.details, e.status])).toEqual([
        ['rev 2', 'OPEN'],
        ['rev 1', 'RESOLVED'],
      ]);
    });

    it('resolves open errors when the object syncs at a later revision', async () => {
      await repos().syncErrors.record({ tenant, storeId: 'default', objectType: 'CONTACT' }, [error(1, 100)]);
      await repos().syncErrors.resolve({ tenant, storeId: 'default', objectType: 'CONTACT' }, ['c1'], 300);
      expect(await repos().syncErrors.listForObject(key(), false)).toEqual([]);
    });

    it('lists newest first, with filters and paging', async () => {
      for (let n = 1; n <= 5; n++) {
        await repos().syncErrors.record({ tenant, storeId: 'default', objectType: n % 2 ? 'CONTACT' : 'DEAL' }, [
          { ...error(1, n * 100), externalObjectId: `o${n}` },
        ]);
      }
      const page1 = await repos().syncErrors.list({ portalId: tenant.portalId, includeResolved: false, limit: 2, offset: 0 });
      expect(page1.errors.map((e) => e.externalObjectId)).toEqual(['o5', 'o4']);
      expect(page1.hasMore).toBe(true);
      const last = await repos().syncErrors.list({ portalId: tenant.portalId, includeResolved: false, limit: 2, offset: 4 });
      expect(last).toMatchObject({ hasMore: false, errors: [{ externalObjectId: 'o1' }] });
      const deals = await repos().syncErrors.list({ portalId: tenant.portalId, includeResolved: false, objectType: 'DEAL', limit: 10, offset: 0 });
      expect(deals.errors.map((e) => e.externalObjectId)).toEqual(['o4', 'o2']);
    });
  });

  describe('alert counters', () => {
    it('when imports failed, then those that failed in the last hour count, however long ago they started', async () => {
      const app = { portalId: tenant.portalId, appId: 'app-counters' };
      const now = Date.now();
      const HOUR = 3_600_000;
      const anImport = async (createdAt: number, failedAt: number | null) => {
        const created = (await repos().imports.create({
          tenant: app,
          storeId: 'default',
          importStartedAt: createdAt,
          version: 'v1',
          status: 'initialized',
          webhookUri: 'https://shop.example.com/import',
          types: {},
          createdAt,
        }))!;
        if (failedAt !== null)
          await moveImport(repos().imports, created.importId, { kind: 'failed', reason: 'the receiver at x did not answer', at: failedAt });
      };
      await anImport(now - 2 * HOUR, now - 5 * 60_000); // started two hours ago, failed five minutes ago
      await anImport(now - 3 * HOUR, now - 2 * HOUR); // failed two hours ago
      await anImport(now - 10 * 60_000, null); // still running
      // Failed before the failure time was stored (no failedAt field at all): looked back at from its start.
      const legacy = { portalId: app.portalId, appId: app.appId, storeId: 'default', version: 'v1', status: 'failed', types: {}, rev: 1 };
      await database.connection.collection('imports').insertMany([
        { ...legacy, importStartedAt: now - 20 * 60_000, createdAt: now - 20 * 60_000, failureReason: 'the import could not be queued' },
        { ...legacy, importStartedAt: now - 4 * HOUR, createdAt: now - 4 * HOUR, failureReason: 'the import could not be queued' },
      ]);

      const counters = await repos().alertCounters.read(app, null, now, { processedLastHour: false });

      expect(counters).toMatchObject({ failedImports: 2, failedWebhooks: 1 });
    });

    it('when an import’s webhook failed after pages arrived (it goes on), then it counts as a failed webhook in the hour after, not as a failed import', async () => {
      const app = { portalId: tenant.portalId, appId: 'app-webhook-problem' };
      const now = Date.now();
      const HOUR = 3_600_000;
      const receiving = async (problemAt: number) => {
        const created = (await repos().imports.create({
          tenant: app,
          storeId: 'default',
          importStartedAt: problemAt - 1_000,
          version: 'v1',
          status: 'initialized',
          webhookUri: 'https://shop.example.com/import',
          types: { CONTACT: { settingsId: 1, expectedCount: null, pageItems: {}, ended: false, pageCount: null, itemCount: null } },
          createdAt: problemAt - 1_000,
        }))!;
        await moveImport(
          repos().imports,
          created.importId,
          { kind: 'page-received', objectType: 'CONTACT', pageNumber: 0, itemCount: 1 },
          { kind: 'failed', reason: 'the receiver at x did not answer', at: problemAt },
        );
      };
      await receiving(now - 5 * 60_000);
      await receiving(now - 2 * HOUR);

      const counters = await repos().alertCounters.read(app, null, now, { processedLastHour: false });

      expect(counters).toMatchObject({ failedImports: 0, failedWebhooks: 1 });
    });

    it('when an import’s release has failed in a row for the stall time, the last within the hour, then it counts as a failed import; a shorter run, an older one or a release finished since do not', async () => {
      const app = { portalId: tenant.portalId, appId: 'app-release-problem' };
      const now = Date.now();
      const HOUR = 3_600_000;
      let n = 0;
      /** A complete import whose release failed first at `lastAt - failingForMs`, last at `lastAt`; then released when `released`. */
      const failing = async (lastAt: number, failingForMs: number, released = false) => {
        const created = (await repos().imports.create({
          tenant: app,
          storeId: 'default',
          importStartedAt: lastAt - failingForMs - 1_000 - ++n,
          version: 'v1',
          status: 'initialized',
          webhookUri: 'https://shop.example.com/import',
          types: { CONTACT: { settingsId: 1, expectedCount: null, pageItems: {}, ended: false, pageCount: null, itemCount: null } },
          createdAt: lastAt - failingForMs - 1_000,
        }))!;
        const tries = [lastAt - failingForMs, lastAt].flatMap((at, i) => [
          { kind: 'release-claimed' as const, at, staleBefore: at, owner: `r${i}` },
          { kind: 'release-dropped' as const, owner: `r${i}`, reason: 'a page could not be handed to the message broker', at },
        ]);
        const finished = released
          ? [
              { kind: 'release-claimed' as const, at: lastAt + 1, staleBefore: lastAt + 1, owner: 'r9' },
              { kind: 'release-progressed' as const, through: 'LINE_ITEM:done', done: true, at: lastAt + 2, owner: 'r9' },
            ]
          : [];
        await moveImport(
          repos().imports,
          created.importId,
          { kind: 'end-received', objectType: 'CONTACT', pageCount: 0, itemCount: 0, at: lastAt - failingForMs - 500 },
          ...tries,
          ...finished,
        );
      };
      await failing(now - 5 * 60_000, STALLED_RELEASE_MS); // counts
      await failing(now - 5 * 60_000, 30_000); // a short outage
      await failing(now - 2 * HOUR, 2 * STALLED_RELEASE_MS); // an hour and more ago
      await failing(now - 10 * 60_000, STALLED_RELEASE_MS, true); // released since

      const counters = await repos().alertCounters.read(app, null, now, { processedLastHour: false });

      expect(counters).toMatchObject({ failedImports: 1, failedWebhooks: 0 });
    });

    it('when a share rule reads its numerator, then it counts the objects processed in the last hour that have an open error, each once, and by type', async () => {
      const now = Date.now();
      const scope = { tenant, storeId: 'default', objectType: 'CONTACT' as const };
      const anError = (externalObjectId: string, type: 'INVALID_EMAIL_ADDRESS' | 'MISSING_REQUIRED_PROPERTY', erroredAt: number) => ({
        externalObjectId,
        rev: 1,
        settingsRev: 1,
        type,
        details: 'x',
        changedAt: erroredAt,
        erroredAt,
      });
      await repos().syncErrors.record(scope, [
        anError('two-types', 'INVALID_EMAIL_ADDRESS', now - 60_000),
        anError('two-types', 'MISSING_REQUIRED_PROPERTY', now - 60_000),
        anError('recent', 'INVALID_EMAIL_ADDRESS', now - 30 * 60_000),
        anError('old', 'INVALID_EMAIL_ADDRESS', now - 2 * 3_600_000),
        anError('resolved', 'INVALID_EMAIL_ADDRESS', now - 60_000),
      ]);
      await repos().syncErrors.resolve(scope, ['resolved'], now);
      // Processed in the last hour: all but `waiting` (its change waits; it has an open error all the same) and `old`, processed two hours ago.
      await repos().syncErrors.record(scope, [anError('waiting', 'INVALID_EMAIL_ADDRESS', now - 60_000)]);
      // `clean` was processed, but an earlier batch of it waits in a dead-letter queue: open, not erring.
      const setAside = {
        ...anError('clean', 'INVALID_EMAIL_ADDRESS', now - 60_000),
        rev: 0,
        settingsRev: 0,
        type: 'UNKNOWN_ERROR' as const,
        setAsideBatchId: 'b-1',
      };
      await repos().syncErrors.record(scope, [setAside], { reopen: true, resolveOthers: false });
      const syncs = database.connection.collection('object_syncs');
      const link = (externalObjectId: string, lastProcessedAt: number) => ({
        _id: keyString({ ...tenant, storeId: 'default', objectType: 'CONTACT', externalObjectId }) as never,
        portalId: tenant.portalId,
        appId: tenant.appId,
        storeId: 'default',
        objectType: 'CONTACT',
        externalObjectId,
        lastProcessedAt,
      });
      await syncs.insertMany([
        link('two-types', now - 60_000),
        link('recent', now - 30 * 60_000),
        link('old', now - 2 * 3_600_000),
        link('resolved', now - 60_000),
        link('clean', now - 60_000),
      ]);

      const counters = await repos().alertCounters.read(tenant, null, now, { processedLastHour: true });

      expect(counters.processedLastHour).toBe(4);
      expect(counters.erringLastHour).toEqual({ any: 2, byType: { INVALID_EMAIL_ADDRESS: 2, MISSING_REQUIRED_PROPERTY: 1 } });
      expect(counters.openErrors).toEqual({ INVALID_EMAIL_ADDRESS: 4, MISSING_REQUIRED_PROPERTY: 1, UNKNOWN_ERROR: 1 });
    });
  });

  describe('settings and stores', () => {
    it('replaces settings whole and counts revisions; an application and a portal have their own', async () => {
      const mappings = { CONTACT: [{ externalPropertyName: 'mail', crmPropertyName: 'email', dataType: 'STRING' as const }] };
      const first = await repos().settings.put(tenant, { enabled: true, importOnInstall: false, webhookUri: null, mappings });
      const second = await repos().settings.put(tenant, { enabled: false, importOnInstall: false, webhookUri: null, mappings: {} });
      expect(second.rev).toBe(first.rev + 1);
      expect(await repos().settings.get(tenant)).toMatchObject({ enabled: false, mappings: { CONTACT: [], DEAL: [] } });
      expect(await repos().settings.get({ ...tenant, appId: 'app-x' })).toBeNull();
    });

    it('upserts stores by id', async () => {
      await repos().stores.upsert(tenant, { id: 's1', label: 'One' });
      await repos().stores.upsert(tenant, { id: 's1', label: 'Renamed', adminUri: 'https://shop.example.com/admin' });
      expect(await repos().stores.list(tenant)).toEqual([{ id: 's1', label: 'Renamed', adminUri: 'https://shop.example.com/admin' }]);
    });
  });

  describe('CRM property names kept for every replica', () => {
    it('when two replicas ask to read one key in one slot, then one gets it; in the next slot one may again', async () => {
      const key = `${tenant.portalId}:0:CONTACT`;
      const claims = await Promise.all([repos().crmPropertyNames.claimRead(key, 10_000, 2_000), repos().crmPropertyNames.claimRead(key, 11_999, 2_000)]);
      expect(claims.sort()).toEqual([false, true]);
      expect(await repos().crmPropertyNames.claimRead(key, 12_000, 2_000)).toBe(true);
    });

    it('when names are kept, then they are fresh since their read; names read earlier never replace them', async () => {
      const key = `${tenant.portalId}:0:DEAL`;
      expect(await repos().crmPropertyNames.fresh(key, 0)).toBeNull();
      await repos().crmPropertyNames.save(key, ['amount', 'dealname'], 5_000);
      expect(await repos().crmPropertyNames.fresh(key, 5_000)).toEqual(['amount', 'dealname']);
      expect(await repos().crmPropertyNames.fresh(key, 5_001)).toBeNull();
      await repos().crmPropertyNames.save(key, ['old'], 4_000);
      expect(await repos().crmPropertyNames.fresh(key, 0)).toEqual(['amount', 'dealname']);
      await repos().crmPropertyNames.save(key, ['amount', 'dealname', 'color'], 6_000);
      expect(await repos().crmPropertyNames.fresh(key, 6_000)).toEqual(['amount', 'dealname', 'color']);
    });
  });
});

afterAll(() => mongoose.disconnect());
