import type { Tenant } from '@ecomm-sync/contracts';
import type { AlertOutbox, AlertRuleRepository } from '@ecomm-sync/data-access';
import { DEFAULT_ALERT_RULES, INITIAL_ALERT_STATE, type AlertState } from '@ecomm-sync/domain';
import { anAlertRuleFields } from '../alert-builders';
import { aTenant } from '../builders';
import type { PublicOf } from '../public-of';

type Rules = PublicOf<AlertRuleRepository>;

const T = 1_700_000_000_000;
const firing: AlertState = { status: 'firing', seq: 1, since: T, value: 3, summary: '3 open errors' };
const owed = (seq: number, at = T): AlertOutbox => ({ notice: { kind: 'firing', seq, value: 3, summary: '3 open errors' }, at });

/**
 * What the console (ManageAlertsUseCase) and the evaluator rely on from AlertRuleRepository: one
 * evaluation per rule and interval however many replicas claim it, a state written only over the
 * one read, with its notice (decision 0053). Run against the fake and the real one.
 */
export function describeAlertRuleRepositoryContract(name: string, make: () => Rules | Promise<Rules>): void {
  describe(`AlertRuleRepository contract: ${name}`, () => {
    let rules: Rules;
    let tenant: Tenant;
    beforeEach(async () => {
      rules = await make();
      tenant = aTenant();
    });
    /** Only this case's rules: the real repository's database is shared by the suite. */
    const dueOf = async (now: number, ids: string[]) => (await rules.due(now, 10_000)).filter((rule) => ids.includes(rule.id)).map((rule) => rule.id);

    it('when rules are created, then the tenant lists them oldest first, finds each, and another tenant sees none of them', async () => {
      const later = await rules.create(tenant, anAlertRuleFields({ name: 'later' }), T + 1);
      const earlier = await rules.create(tenant, anAlertRuleFields({ name: 'earlier', storeId: 'store-1' }), T);

      expect((await rules.list(tenant)).map((rule) => rule.name)).toEqual(['earlier', 'later']);
      expect(await rules.find(tenant, earlier.id)).toEqual({
        ...earlier,
        storeId: 'store-1',
        state: INITIAL_ALERT_STATE,
        stateRev: 0,
        nextDueAt: 0,
        outbox: null,
      });
      expect(await rules.list(aTenant())).toEqual([]);
      expect(await rules.find(aTenant(), later.id)).toBeNull();
    });

    it('when a rule is replaced, then it starts over (state with its seq kept, due at once, a new revision) and still owes its notice; another tenant replaces nothing', async () => {
      const rule = await rules.create(tenant, anAlertRuleFields(), T);
      await rules.writeState(rule, firing, owed(1), T);

      const replaced = await rules.replace(tenant, rule.id, anAlertRuleFields({ name: 'renamed', enabled: false }));

      expect(replaced).toMatchObject({
        name: 'renamed',
        enabled: false,
        state: { ...INITIAL_ALERT_STATE, seq: firing.seq },
        nextDueAt: 0,
        outbox: owed(1),
        stateRev: 2,
      });
      expect(await rules.find(tenant, rule.id)).toEqual(replaced);
      expect(await rules.replace(aTenant(), rule.id, anAlertRuleFields())).toBeNull();
    });

    it('when a rule is switched off, then only enabled changes (its name and condition as stored, an edit since kept) and it starts over; another tenant switches nothing', async () => {
      const rule = await rules.create(tenant, anAlertRuleFields({ name: 'first' }), T);
      await rules.writeState(rule, firing, owed(1), T);
      const edited = await rules.replace(tenant, rule.id, anAlertRuleFields({ name: 'edited since', enabled: true }));

      const switched = await rules.setEnabled(tenant, rule.id, false);

      expect(switched).toEqual({ ...edited, enabled: false, stateRev: edited!.stateRev + 1 });
      expect(switched!.state).toEqual({ ...INITIAL_ALERT_STATE, seq: firing.seq });
      expect(await rules.find(tenant, rule.id)).toEqual(switched);
      expect(await rules.setEnabled(aTenant(), rule.id, true)).toBeNull();
      expect((await rules.find(tenant, rule.id))!.enabled).toBe(false);
    });

    it('when the defaults are ensured twice at once, then the tenant has each once, they cannot be deleted, and a rule the customer made can', async () => {
      await Promise.all([rules.ensureDefaults(tenant, T), rules.ensureDefaults(tenant, T + 1)]);
      const defaults = (await rules.list(tenant)).filter((rule) => rule.defaultKey !== null);
      expect(defaults.map((rule) => rule.defaultKey).sort()).toEqual(DEFAULT_ALERT_RULES.map((rule) => rule.key).sort());
      expect(defaults.every((rule) => rule.createdAt === T || rule.createdAt === T + 1)).toBe(true);

      expect(await rules.remove(tenant, defaults[0].id)).toBe(false);
      const own = await rules.create(tenant, anAlertRuleFields(), T);
      expect(await rules.remove(aTenant(), own.id)).toBe(false);
      expect(await rules.remove(tenant, own.id)).toBe(true);
      expect((await rules.list(tenant)).map((rule) => rule.id).sort()).toEqual(defaults.map((rule) => rule.id).sort());
    });

    it("when a tenant's rules are all removed, then its defaults go too and another tenant's stay", async () => {
      const app = { ...tenant, appId: 'app-1' };
      await rules.ensureDefaults(app, T);
      await rules.create(app, anAlertRuleFields(), T);
      const own = await rules.create(tenant, anAlertRuleFields(), T);

      expect(await rules.removeAllOf(app)).toBe(DEFAULT_ALERT_RULES.length + 1);

      expect(await rules.list(app)).toEqual([]);
      expect((await rules.list(tenant)).map((rule) => rule.id)).toEqual([own.id]);
    });

    it('when rules are due at different times, then due gives the enabled ones due by now, the longest due first, at most the limit', async () => {
      const [a, b, off, future] = await Promise.all([
        rules.create(tenant, anAlertRuleFields(), T),
        rules.create(tenant, anAlertRuleFields(), T),
        rules.create(tenant, anAlertRuleFields({ enabled: false }), T),
        rules.create(tenant, anAlertRuleFields(), T),
      ]);
      await rules.claim(a, T + 20);
      await rules.claim(b, T + 10);
      await rules.claim(future, T + 90);
      const ids = [a.id, b.id, off.id, future.id];

      expect(await dueOf(T + 30, ids)).toEqual([b.id, a.id]);
      expect(await rules.due(T + 30, 1)).toHaveLength(1);
    });

    it('when ten replicas claim one due rule at once, then exactly one wins, and a claim over a stale read or on a disabled rule loses', async () => {
      const rule = await rules.create(tenant, anAlertRuleFields(), T);
      const claims = await Promise.all(Array.from({ length: 10 }, () => rules.claim(rule, T + 60_000)));
      expect(claims.filter(Boolean)).toHaveLength(1);
      expect((await rules.find(tenant, rule.id))!.nextDueAt).toBe(T + 60_000);
      expect(await rules.claim(rule, T + 120_000)).toBe(false);

      const off = await rules.create(tenant, anAlertRuleFields({ enabled: false }), T);
      expect(await rules.claim(off, T + 60_000)).toBe(false);
    });

    it('when two replicas write a state over the same read, then one lands with its notice and the other is refused', async () => {
      const rule = await rules.create(tenant, anAlertRuleFields(), T);
      const writes = await Promise.all([rules.writeState(rule, firing, owed(1), T + 5), rules.writeState(rule, firing, owed(1), T + 5)]);

      expect(writes.filter(Boolean)).toHaveLength(1);
      expect(await rules.find(tenant, rule.id)).toMatchObject({ state: firing, stateRev: 1, outbox: owed(1), lastEvaluatedAt: T + 5 });
    });

    it('when a state is written without a notice, then the notice still owed stays', async () => {
      const rule = await rules.create(tenant, anAlertRuleFields(), T);
      await rules.writeState(rule, firing, owed(1), T);
      const read = (await rules.find(tenant, rule.id))!;

      expect(await rules.writeState(read, { ...firing, value: 4 }, null, T + 1)).toBe(true);
      expect(await rules.find(tenant, rule.id)).toMatchObject({ state: { value: 4 }, stateRev: 2, outbox: owed(1) });
    });

    it("when a change of state still owes its notices, then it is listed until its own change clears it (an older change's clear leaves it)", async () => {
      const rule = await rules.create(tenant, anAlertRuleFields(), T);
      await rules.writeState(rule, firing, owed(1, T), T);
      const owing = async (before: number) => (await rules.owing(before, 10_000)).map((one) => one.id);
      expect(await owing(T + 1)).toContain(rule.id);
      expect(await owing(T)).not.toContain(rule.id);

      await rules.clearOutbox(rule.id, 0);
      expect(await owing(T + 1)).toContain(rule.id);
      await rules.clearOutbox(rule.id, 1);
      expect(await owing(T + 1)).not.toContain(rule.id);
    });
  });
}
