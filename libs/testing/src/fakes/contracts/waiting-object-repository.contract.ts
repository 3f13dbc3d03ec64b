import type { Tenant } from '@ecomm-sync/contracts';
import type { WaitingObject, WaitingObjectRepository } from '@ecomm-sync/data-access';
import { aMappedChange } from '../../support';
import { anAppTenant } from '../builders';
import type { PublicOf } from '../public-of';

type Waiting = PublicOf<WaitingObjectRepository>;

/** Far above the times other contract cases use: `due` and `expire` see every tenant's entries. */
const EPOCH = 9_000_000_000_000;
const WINDOW = 1_000;

/** What the applier relies on from WaitingObjectRepository; run against the fake and the real one. */
export function describeWaitingObjectRepositoryContract(name: string, make: () => Waiting | Promise<Waiting>): void {
  describe(`WaitingObjectRepository contract: ${name}`, () => {
    let waiting: Waiting;
    let tenant: Tenant;
    beforeEach(async () => {
      waiting = await make();
      tenant = anAppTenant();
    });

    const entry = (externalObjectId: string, waitingFor: string[], rev = 1, settingsRev = 1) => ({
      change: aMappedChange({ externalObjectId, rev, settingsRev }),
      waitingFor,
    });
    const mine = (entries: WaitingObject[]) => entries.filter((found) => found.tenant.portalId === tenant.portalId);
    const ids = (entries: WaitingObject[]) => entries.map((found) => found.change.externalObjectId).sort();

    it('when a change waits, then it is found by what it waits for, in its tenant and store, within its window', async () => {
      const now = EPOCH + 1_000_000;
      const waits = entry('li-1', ['DEAL:d1', 'PRODUCT:p1']);
      await waiting.wait({ tenant, storeId: 'default', objectType: 'LINE_ITEM' }, [waits], now, WINDOW);
      const [found] = await waiting.waitingFor(tenant, 'default', ['PRODUCT:p1'], now);
      expect(found).toMatchObject({
        tenant,
        storeId: 'default',
        objectType: 'LINE_ITEM',
        change: waits.change,
        waitingFor: ['DEAL:d1', 'PRODUCT:p1'],
        since: now,
        until: now + WINDOW,
        reapply: false,
      });
      expect(await waiting.waitingFor(tenant, 'default', ['DEAL:other'], now)).toEqual([]);
      expect(await waiting.waitingFor(tenant, 'eu', ['DEAL:d1'], now)).toEqual([]);
      expect(await waiting.waitingFor({ portalId: tenant.portalId, appId: null }, 'default', ['DEAL:d1'], now)).toEqual([]);
      expect(await waiting.waitingFor(tenant, 'default', ['DEAL:d1'], now + WINDOW)).toEqual([]);
      expect(await waiting.waitingFor(tenant, 'default', [], now)).toEqual([]);
    });

    it('when a change waits, then its object is waiting in its tenant, store and type only, within its window, until it is released', async () => {
      const now = EPOCH + 1_500_000;
      const scope = { tenant, storeId: 'default', objectType: 'LINE_ITEM' as const };
      await waiting.wait(scope, [entry('li-w', ['DEAL:d1'])], now, WINDOW);
      expect(await waiting.isWaiting(scope, 'li-w', now)).toBe(true);
      expect(await waiting.isWaiting(scope, 'li-w', now + WINDOW)).toBe(false);
      expect(await waiting.isWaiting(scope, 'li-other', now)).toBe(false);
      expect(await waiting.isWaiting({ ...scope, storeId: 'eu' }, 'li-w', now)).toBe(false);
      expect(await waiting.isWaiting({ ...scope, objectType: 'DEAL' }, 'li-w', now)).toBe(false);
      expect(await waiting.isWaiting({ ...scope, tenant: { portalId: tenant.portalId, appId: null } }, 'li-w', now)).toBe(false);
      await waiting.release(scope, [{ externalObjectId: 'li-w', rev: 1, settingsRev: 1 }]);
      expect(await waiting.isWaiting(scope, 'li-w', now)).toBe(false);
    });

    it('when an applied change waits only to associate later, then its object is not waiting', async () => {
      const now = EPOCH + 1_600_000;
      const scope = { tenant, storeId: 'default', objectType: 'DEAL' as const };
      await waiting.wait(scope, [entry('d-later', ['CONTACT:c9'])], now, WINDOW, { reapply: true });
      expect(await waiting.isWaiting(scope, 'd-later', now)).toBe(false);
    });

    it('when an object waits again, then a newer or same revision replaces it keeping its window, and an older one leaves it', async () => {
      const now = EPOCH + 2_000_000;
      await waiting.wait({ tenant, storeId: 'default', objectType: 'DEAL' }, [entry('d', ['CONTACT:a'], 2)], now, WINDOW);
      await waiting.wait({ tenant, storeId: 'default', objectType: 'DEAL' }, [entry('d', ['CONTACT:b'], 3)], now + 10, WINDOW, { reapply: true });
      await waiting.wait({ tenant, storeId: 'default', objectType: 'DEAL' }, [entry('d', ['CONTACT:c'], 1, 9)], now + 20, WINDOW);
      const found = await waiting.waitingFor(tenant, 'default', ['CONTACT:a', 'CONTACT:b', 'CONTACT:c'], now + 30);
      expect(found.map(({ change, waitingFor, since, until, reapply }) => [change.rev, waitingFor, since, until, reapply])).toEqual([
        [3, ['CONTACT:b'], now, now + WINDOW, true],
      ]);
    });

    it('when waiting changes are released at a revision, then those not newer go and a newer one stays', async () => {
      const now = EPOCH + 3_000_000;
      await waiting.wait(
        { tenant, storeId: 'default', objectType: 'LINE_ITEM' },
        ['a', 'b', 'c'].map((id) => entry(id, ['DEAL:d'], 2, 1)),
        now,
        WINDOW,
      );
      await waiting.release({ tenant, storeId: 'default', objectType: 'LINE_ITEM' }, [
        { externalObjectId: 'a', rev: 2, settingsRev: 1 },
        { externalObjectId: 'b', rev: 3, settingsRev: 0 },
        { externalObjectId: 'c', rev: 1, settingsRev: 9 },
      ]);
      await waiting.release({ tenant, storeId: 'default', objectType: 'DEAL' }, [{ externalObjectId: 'c', rev: 9, settingsRev: 9 }]);
      expect(ids(await waiting.waitingFor(tenant, 'default', ['DEAL:d'], now))).toEqual(['c']);
    });

    it('when the retry takes due changes, then those least recently tried come first, and one marked tried goes to the back', async () => {
      const now = EPOCH + 4_000_000;
      await waiting.wait({ tenant, storeId: 'default', objectType: 'LINE_ITEM' }, [entry('first', ['DEAL:d'])], now, WINDOW);
      await waiting.wait({ tenant, storeId: 'default', objectType: 'LINE_ITEM' }, [entry('second', ['DEAL:d'])], now + 1, WINDOW);
      await waiting.wait({ tenant, storeId: 'default', objectType: 'LINE_ITEM' }, [entry('gone', ['DEAL:d'])], now - WINDOW, WINDOW);
      const due = mine(await waiting.due(now + 2, 10_000));
      expect(due.map((found) => found.change.externalObjectId)).toEqual(['first', 'second']);
      await waiting.markTried([due[0]], now + 3);
      expect(mine(await waiting.due(now + 4, 10_000)).map((found) => found.change.externalObjectId)).toEqual(['second', 'first']);
    });

    it('when windows end, then expiring forgets those changes, counts them, and keeps the others', async () => {
      const now = EPOCH + 5_000_000;
      await waiting.expire(now);
      await waiting.wait({ tenant, storeId: 'default', objectType: 'LINE_ITEM' }, [entry('old-1', ['DEAL:d']), entry('old-2', ['DEAL:d'])], now, 10);
      await waiting.wait({ tenant, storeId: 'default', objectType: 'LINE_ITEM' }, [entry('young', ['DEAL:d'])], now, WINDOW);
      expect(await waiting.expire(now + 10)).toBe(2);
      expect(ids(await waiting.waitingFor(tenant, 'default', ['DEAL:d'], now))).toEqual(['young']);
    });
  });
}
