import { aPortal, FakeCrm } from '@ecomm-sync/testing';
import type { SharedPropertyNames } from '@ecomm-sync/data-access';
import { CrmDirectory } from './crm-directory';
import { crmProperty } from '@ecomm-sync/domain';

const property = (name: string) => crmProperty(name, name, 'string', { groupName: 'productinformation' });

describe('CrmDirectory (applier)', () => {
  let now: number;
  let crm: FakeCrm;
  let reads: jest.SpyInstance;
  /** The portal each forget named (undefined: every one). */
  let forgottenPortals: (number | undefined)[];
  let directory: CrmDirectory;
  const portal = aPortal();

  beforeEach(() => {
    now = 1_000_000;
    crm = new FakeCrm({ properties: { PRODUCT: [property('name'), property('price')] } });
    reads = jest.spyOn(crm, 'listProperties');
    forgottenPortals = [];
    directory = new CrmDirectory(
      {
        clientFor: () => crm,
        forget: (portalId?: number) => {
          forgottenPortals.push(portalId);
        },
      },
      { propertyCacheMs: 60_000, clock: () => now },
    );
  });

  it('when the definitions are younger than the cache time, then they are served without a request; at the cache time they are read again', async () => {
    expect([...(await directory.definedProperties(portal, 'PRODUCT'))].sort()).toEqual(['name', 'price']);
    now += 59_999;
    await directory.definedProperties(portal, 'PRODUCT', ['name']);
    expect(reads).toHaveBeenCalledTimes(1);

    now += 1;
    await directory.definedProperties(portal, 'PRODUCT');
    expect(reads).toHaveBeenCalledTimes(2);
  });

  it('when a needed name is missing from cached definitions, then they are read again once and the new property is seen', async () => {
    await directory.definedProperties(portal, 'PRODUCT');
    await crm.createProperty('PRODUCT', property('color'));

    expect((await directory.definedProperties(portal, 'PRODUCT', ['color'])).has('color')).toBe(true);
    expect(await directory.definedProperties(portal, 'PRODUCT', ['color'])).toContain('color');
    expect(reads).toHaveBeenCalledTimes(2);
  });

  it('when the first read already lacks a needed name, then that read is the only request (the CRM really lacks it)', async () => {
    expect((await directory.definedProperties(portal, 'PRODUCT', ['color'])).has('color')).toBe(false);

    expect(reads).toHaveBeenCalledTimes(1);
  });

  it('when definitions of two object types are asked, then each type is read and cached on its own', async () => {
    await directory.definedProperties(portal, 'PRODUCT');
    await directory.definedProperties(portal, 'DEAL');
    await directory.definedProperties(portal, 'PRODUCT');

    expect(reads.mock.calls).toEqual([['PRODUCT'], ['DEAL']]);
  });

  it('when forget is called, then the clients and the cached definitions are dropped', async () => {
    await directory.definedProperties(portal, 'PRODUCT');

    directory.forget();
    await directory.definedProperties(portal, 'PRODUCT');

    expect(forgottenPortals).toEqual([undefined]);
    expect(reads).toHaveBeenCalledTimes(2);
  });

  it("when one portal is forgotten, then its client and definitions go and another portal's definitions stay", async () => {
    const other = aPortal();
    await directory.definedProperties(portal, 'PRODUCT');
    await directory.definedProperties(other, 'PRODUCT');

    directory.forget(portal.portalId);
    await directory.definedProperties(portal, 'PRODUCT');
    await directory.definedProperties(other, 'PRODUCT');

    expect(forgottenPortals).toEqual([portal.portalId]);
    expect(reads).toHaveBeenCalledTimes(3); // the forgotten portal's read again, the other's not
  });

  describe('with the names kept for every replica', () => {
    /** SharedPropertyNames in memory, as the repository keeps them (one claim per key and slot). */
    const sharedKeeping = (): SharedPropertyNames => {
      const kept = new Map<string, { names: string[]; readAt: number }>();
      const claimed = new Set<string>();
      return {
        fresh: async (key, since) => ((kept.get(key)?.readAt ?? -Infinity) >= since ? [...kept.get(key)!.names] : null),
        claimRead: async (key, at, slotMs) => {
          const claim = `${key}#${Math.floor(at / slotMs)}`;
          if (claimed.has(claim)) return false;
          claimed.add(claim);
          return true;
        },
        save: async (key, names, readAt) => {
          if ((kept.get(key)?.readAt ?? -Infinity) <= readAt) kept.set(key, { names: [...names], readAt });
        },
      };
    };
    const replica = (shared: SharedPropertyNames) =>
      new CrmDirectory({ clientFor: () => crm, forget: () => undefined }, { propertyCacheMs: 60_000, clock: () => now, shared });

    it('when two replicas need the definitions at once, then the CRM is read once and both have them', async () => {
      const shared = sharedKeeping();
      const [first, second] = await Promise.all([replica(shared).definedProperties(portal, 'PRODUCT'), replica(shared).definedProperties(portal, 'PRODUCT')]);
      expect([[...first].sort(), [...second].sort()]).toEqual([
        ['name', 'price'],
        ['name', 'price'],
      ]);
      expect(reads).toHaveBeenCalledTimes(1);
    });

    it('when the kept names are older than the cache time, or lack a needed name, then the CRM is read again', async () => {
      const shared = sharedKeeping();
      await replica(shared).definedProperties(portal, 'PRODUCT');
      now += 60_001;
      await replica(shared).definedProperties(portal, 'PRODUCT');
      expect(reads).toHaveBeenCalledTimes(2);
      await crm.createProperty('PRODUCT', property('color'));
      expect((await replica(shared).definedProperties(portal, 'PRODUCT', ['color'])).has('color')).toBe(true);
      expect(reads).toHaveBeenCalledTimes(3);
      expect((await replica(shared).definedProperties(portal, 'PRODUCT', ['color'])).has('color')).toBe(true);
      expect(reads).toHaveBeenCalledTimes(3);
    });
  });
});
