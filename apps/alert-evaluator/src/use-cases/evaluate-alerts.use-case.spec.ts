import type { Tenant } from '@ecomm-sync/contracts';
import { emptyObjectState, LAG_NOT_KNOWN, type AlertCondition, type AlertCounters } from '@ecomm-sync/domain';
import {
  anAlertCounters,
  anAlertRule,
  anAlertRuleFields,
  aTenant,
  FakeAlertDestinationRepository,
  FakeAlertNoticeRepository,
  FakeAlertRuleRepository,
  FakeObjectStateRepository,
  FakeObjectSyncRepository,
  INVALID_EMAILS_CONDITION,
  recordingLogger,
} from '@ecomm-sync/testing';
import { EvaluateAlertsUseCase, type EvaluateAlertsPorts } from './evaluate-alerts.use-case';

const MINUTE = 60_000;

describe('EvaluateAlertsUseCase', () => {
  let tenant: Tenant;
  let rules: FakeAlertRuleRepository;
  let destinations: FakeAlertDestinationRepository;
  let notices: FakeAlertNoticeRepository;
  let counters: AlertCounters;
  let states: FakeObjectStateRepository;
  let syncs: FakeObjectSyncRepository;
  let now: number;
  let queued: string[];
  /** Fails the next queueing once (a replica that stops after the state write). */
  let failNextEnqueue: boolean;

  const ports = (): EvaluateAlertsPorts => ({
    rules,
    destinations,
    notices,
    counters: { read: async () => ({ ...counters, now }) },
    unapplied: states,
    enqueue: async (noticeId) => {
      if (failNextEnqueue) {
        failNextEnqueue = false;
        throw new Error('the broker went away');
      }
      queued.push(noticeId);
    },
    clock: () => now,
    logger: recordingLogger().logger,
  });
  const replica = (over: Partial<EvaluateAlertsPorts> = {}) =>
    new EvaluateAlertsUseCase({ ...ports(), ...over }, { intervalMs: MINUTE, batchSize: 100, consoleUrl: 'https://sync.example.com' });
  const aRule = (condition: AlertCondition = INVALID_EMAILS_CONDITION, enabled = true) =>
    rules.put(anAlertRule({ portalId: tenant.portalId, appId: tenant.appId, condition, enabled }));
  const statusOf = async (ruleId: string) => (await rules.find(tenant, ruleId))!.state.status;
  const noticeIds = async () => (await notices.list(tenant, 100)).map((notice) => notice.id).sort();

  beforeEach(async () => {
    tenant = aTenant();
    rules = new FakeAlertRuleRepository();
    destinations = new FakeAlertDestinationRepository();
    notices = new FakeAlertNoticeRepository();
    counters = anAlertCounters();
    syncs = new FakeObjectSyncRepository();
    states = new FakeObjectStateRepository(() => now, syncs);
    now = 1_700_000_000_000;
    queued = [];
    failNextEnqueue = false;
    await destinations.add(tenant, { kind: 'email', target: 'ops@shop.example', shownTarget: 'ops@shop.example', label: '', sealedSecret: null }, 1, 'dest-1');
    await destinations.add(
      tenant,
      { kind: 'webhook', target: 'v2.key.sealed-url', shownTarget: 'https://hooks.shop.example/…erts', label: '', sealedSecret: 'sealed' },
      2,
      'dest-2',
    );
  });

  it('when a rule crosses its threshold then one notice per destination is stored and queued, linking to the console page', async () => {
    const rule = aRule();
    counters.openErrors = { INVALID_EMAIL_ADDRESS: 1 };

    await replica().run();

    expect(queued).toEqual([`${rule.id}:1:dest-1`, `${rule.id}:1:dest-2`]);
    const notice = (await notices.find(`${rule.id}:1:dest-1`))!;
    expect(notice).toMatchObject({ kind: 'firing', value: 1, status: 'pending' });
    expect(notice.body).toMatchObject({
      noticeId: `${rule.id}:1:dest-1`,
      state: 'firing',
      rule: { id: rule.id, name: rule.name, kind: 'open-errors' },
      link: `https://sync.example.com/console/portals/${tenant.portalId}/errors?errorType=INVALID_EMAIL_ADDRESS`,
    });
    expect(await rules.find(tenant, rule.id)).toMatchObject({ state: { status: 'firing', seq: 1 }, outbox: null });
  });

  it('when a rule stays firing over many intervals then no further notice is sent, and when it clears then one resolved notice is', async () => {
    const rule = aRule();
    counters.openErrors = { INVALID_EMAIL_ADDRESS: 1 };
    for (let minute = 0; minute < 5; minute++) {
      await replica().run();
      now += MINUTE;
    }
    expect(await noticeIds()).toEqual([`${rule.id}:1:dest-1`, `${rule.id}:1:dest-2`]);

    counters.openErrors = {};
    await replica().run();

    expect((await noticeIds()).slice(2)).toEqual([`${rule.id}:2:dest-1`, `${rule.id}:2:dest-2`]);
    expect(await notices.find(`${rule.id}:2:dest-2`)).toMatchObject({ kind: 'resolved', value: 0 });
  });

  it('when a rule that fired and resolved is edited and breaches again then a new firing notice is stored, not the one sent before the edit', async () => {
    const rule = aRule();
    counters.openErrors = { INVALID_EMAIL_ADDRESS: 1 };
    await replica().run();
    now += MINUTE;
    counters.openErrors = {};
    await replica().run();
    await rules.replace(tenant, rule.id, anAlertRuleFields({ name: 'renamed', condition: INVALID_EMAILS_CONDITION }));
    queued = [];

    now += MINUTE;
    counters.openErrors = { INVALID_EMAIL_ADDRESS: 2 };
    await replica().run();

    expect(queued).toEqual([`${rule.id}:3:dest-1`, `${rule.id}:3:dest-2`]);
    expect(await notices.find(`${rule.id}:3:dest-1`)).toMatchObject({ kind: 'firing', value: 2, status: 'pending' });
    expect(await notices.find(`${rule.id}:1:dest-1`)).toMatchObject({ kind: 'firing', value: 1 });
  });

  it('when two replicas tick in the same interval then the rule is evaluated once and each notice is queued once', async () => {
    aRule();
    counters.openErrors = { INVALID_EMAIL_ADDRESS: 3 };

    const reports = [await replica().run(), await replica().run()];

    expect(reports.map((report) => report.evaluated)).toEqual([1, 0]);
    expect(queued).toHaveLength(2);
    expect(new Set(queued).size).toBe(2);
  });

  it('when a replica stops after writing the state and before queueing then a later tick queues the owed notices once', async () => {
    const rule = aRule();
    counters.openErrors = { INVALID_EMAIL_ADDRESS: 1 };
    failNextEnqueue = true;

    await expect(replica().run()).rejects.toThrow('the broker went away');
    expect((await rules.find(tenant, rule.id))!.outbox).toMatchObject({ notice: { kind: 'firing', seq: 1 } });

    now += MINUTE;
    await replica().run();

    expect([...new Set(queued)].sort()).toEqual([`${rule.id}:1:dest-1`, `${rule.id}:1:dest-2`]);
    expect(await noticeIds()).toHaveLength(2);
    expect((await rules.find(tenant, rule.id))!.outbox).toBeNull();
  });

  it('when a rule still owes a notice and is edited, then the evaluation right after sends the owed notice and the next one', async () => {
    const rule = aRule();
    counters.openErrors = { INVALID_EMAIL_ADDRESS: 1 };
    failNextEnqueue = true;
    await expect(replica().run()).rejects.toThrow('the broker went away');
    await rules.replace(tenant, rule.id, anAlertRuleFields({ name: 'renamed', condition: INVALID_EMAILS_CONDITION }));
    queued = [];

    await replica().run(); // at once: the owed notice is too young for the sweep of owed notices

    expect(await noticeIds()).toEqual([`${rule.id}:1:dest-1`, `${rule.id}:1:dest-2`, `${rule.id}:2:dest-1`, `${rule.id}:2:dest-2`]);
    expect(queued).toEqual(expect.arrayContaining([`${rule.id}:1:dest-1`, `${rule.id}:2:dest-1`]));
  });

  it('when the sender has not taken a notice for ten intervals then each tick queues it again at most once per interval, not on every tick', async () => {
    const rule = aRule();
    counters.openErrors = { INVALID_EMAIL_ADDRESS: 1 };
    const start = now;
    const queuedAt: Record<string, number[]> = {};
    const timed = replica({
      enqueue: async (noticeId) => void (queuedAt[noticeId] ??= []).push((now - start) / MINUTE),
    });

    for (let tick = 0; tick <= 10; tick++, now += MINUTE) await timed.run();

    // Queued when stored; again once it is two intervals old, then at most once per interval (stamped, compare and set).
    expect(queuedAt).toEqual({ [`${rule.id}:1:dest-1`]: [0, 3, 5, 7, 9], [`${rule.id}:1:dest-2`]: [0, 3, 5, 7, 9] });
    expect(await notices.find(`${rule.id}:1:dest-1`)).toMatchObject({ status: 'pending', requeuedAt: start + 9 * MINUTE });
  });

  it('when the rule was edited between the claim and the state write then its old evaluation is dropped without a notice', async () => {
    const rule = aRule();
    counters.openErrors = { INVALID_EMAIL_ADDRESS: 1 };
    const savedMeanwhile: EvaluateAlertsPorts['rules'] = {
      due: (at, limit) => rules.due(at, limit),
      claim: async (seen, next) => {
        const won = await rules.claim(seen, next);
        await rules.replace(tenant, rule.id, anAlertRuleFields({ name: 'renamed meanwhile' })); // the customer saved the rule
        return won;
      },
      writeState: (seen, state, outbox, at) => rules.writeState(seen, state, outbox, at),
      owing: (before, limit) => rules.owing(before, limit),
      clearOutbox: (ruleId, seq) => rules.clearOutbox(ruleId, seq),
    };

    await replica({ rules: savedMeanwhile }).run();

    expect(queued).toEqual([]);
    expect(await statusOf(rule.id)).toBe('ok');
  });

  it('when a disabled rule would breach then it is not evaluated', async () => {
    aRule(INVALID_EMAILS_CONDITION, false);
    counters.openErrors = { INVALID_EMAIL_ADDRESS: 5 };

    expect(await replica().run()).toEqual({ evaluated: 0, notices: 0 });
  });

  it('when the CRM refuses the token at the probe then the CRM connection rule fires, probed once per portal however many rules ask', async () => {
    const rule15 = aRule({ kind: 'crm-connection', unreachableMinutes: 15 });
    const rule60 = aRule({ kind: 'crm-connection', unreachableMinutes: 60 });
    const probed: number[] = [];

    await replica({ probeCrm: async (portalId) => (probed.push(portalId), 'refused') }).run();

    expect(probed).toEqual([tenant.portalId]);
    expect([await statusOf(rule15.id), await statusOf(rule60.id)]).toEqual(['firing', 'firing']);
  });

  it('when the portal already waits for its CRM then the probe is not sent (the wait says enough)', async () => {
    const rule = aRule({ kind: 'crm-connection', unreachableMinutes: 15 });
    counters.crmWait = { reason: 'rate-limited', since: now };
    const probed: number[] = [];

    await replica({ probeCrm: async (portalId) => (probed.push(portalId), 'refused') }).run();

    expect(probed).toEqual([]);
    expect(await statusOf(rule.id)).toBe('ok');
  });

  it('when the oldest object accepted and not applied yet waits longer than the rule allows then the lag rule fires, and once applied it resolves', async () => {
    const rule = aRule({ kind: 'sync-lag', minutes: 5 });
    const scope = { tenant, storeId: 'default', objectType: 'CONTACT' as const, receivedAt: now };
    const { saved } = await states.saveMany(scope, [{ externalObjectId: 'c-1', state: emptyObjectState(), expectedRev: null }]);
    now += 6 * MINUTE;

    await replica().run();
    expect(await rules.find(tenant, rule.id)).toMatchObject({ state: { status: 'firing', value: 6 } });

    const applied = await syncs.claim(scope, new Map(), ['c-1'], () => true);
    await syncs.recordProcessed(scope, [{ externalObjectId: 'c-1', rev: saved.get('c-1')!, settingsRev: 1, processedAt: now, changedAt: 1 }], applied);
    now += MINUTE;
    await replica().run();

    expect(await rules.find(tenant, rule.id)).toMatchObject({ state: { status: 'resolved', value: 0 } });
    expect(queued).toEqual([`${rule.id}:1:dest-1`, `${rule.id}:1:dest-2`, `${rule.id}:2:dest-1`, `${rule.id}:2:dest-2`]);
  });

  it('when the lag is not known yet (the sweep ran out of pages), then a firing lag rule keeps its state and sends nothing', async () => {
    const rule = aRule({ kind: 'sync-lag', minutes: 5 });
    const scope = { tenant, storeId: 'default', objectType: 'CONTACT' as const, receivedAt: now };
    await states.saveMany(scope, [{ externalObjectId: 'c-1', state: emptyObjectState(), expectedRev: null }]);
    now += 6 * MINUTE;
    await replica().run();
    const sentBefore = queued.length;

    now += MINUTE;
    await replica({ unapplied: { oldestUnapplied: async () => LAG_NOT_KNOWN } }).run();

    expect(await rules.find(tenant, rule.id)).toMatchObject({ state: { status: 'firing', value: 6 } });
    expect(queued).toHaveLength(sentBefore);
  });
});
