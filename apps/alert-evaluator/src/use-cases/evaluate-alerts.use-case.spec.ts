import { AlertStoreFixture } from './alert-store-fixture';
import { EvaluateAlertsUseCase } from './evaluate-alerts.use-case';

const MINUTE = 60_000;
const INVALID_EMAILS = { kind: 'open-errors', errorType: 'INVALID_EMAIL_ADDRESS', measure: 'count', threshold: 0 } as const;

describe('EvaluateAlertsUseCase', () => {
  let store: AlertStoreFixture;
  const replica = () => new EvaluateAlertsUseCase(store.evaluatorPorts(), { intervalMs: MINUTE, batchSize: 100, consoleUrl: 'https://sync.example.com' });
  const tick = async (replicas = [replica()]) => {
    for (const one of replicas) await one.run();
  };

  beforeEach(() => {
    store = new AlertStoreFixture();
    store.addDestination('email', 'ops@shop.example');
    store.addDestination('webhook', 'https://hooks.shop.example/alerts');
  });

  it('when a rule crosses its threshold then one notice per destination is stored and queued, linking to the console page', async () => {
    const rule = store.addRule(INVALID_EMAILS);
    store.counters.openErrors = { INVALID_EMAIL_ADDRESS: 1 };

    await tick();

    expect(store.queued).toEqual([`${rule.id}:1:dest-1`, `${rule.id}:1:dest-2`]);
    const notice = store.notices.get(`${rule.id}:1:dest-1`)!;
    expect(notice).toMatchObject({ kind: 'firing', value: 1, status: 'pending' });
    expect(notice.body).toMatchObject({
      noticeId: `${rule.id}:1:dest-1`,
      state: 'firing',
      rule: { id: rule.id, name: rule.name, kind: 'open-errors' },
      link: 'https://sync.example.com/console/portals/7/errors?errorType=INVALID_EMAIL_ADDRESS',
    });
    expect(store.rules.get(rule.id)).toMatchObject({ state: { status: 'firing', seq: 1 }, outbox: null });
  });

  it('when a rule stays firing over many intervals then no further notice is sent, and when it clears then one resolved notice is', async () => {
    const rule = store.addRule(INVALID_EMAILS);
    store.counters.openErrors = { INVALID_EMAIL_ADDRESS: 1 };
    for (let minute = 0; minute < 5; minute++) {
      await tick();
      store.now += MINUTE;
    }
    // Pending notices older than two intervals are queued again (the sender sends each once): still the same two.
    expect([...store.notices.keys()]).toEqual([`${rule.id}:1:dest-1`, `${rule.id}:1:dest-2`]);

    store.counters.openErrors = {};
    await tick();

    expect([...store.notices.keys()].slice(2)).toEqual([`${rule.id}:2:dest-1`, `${rule.id}:2:dest-2`]);
    expect(store.notices.get(`${rule.id}:2:dest-2`)).toMatchObject({ kind: 'resolved', value: 0 });
  });

  it('when two replicas tick in the same interval then the rule is evaluated once and each notice is queued once', async () => {
    store.addRule(INVALID_EMAILS);
    store.counters.openErrors = { INVALID_EMAIL_ADDRESS: 3 };
    const [first, second] = [replica(), replica()];

    const reports = [await first.run(), await second.run()];

    expect(reports.map((report) => report.evaluated)).toEqual([1, 0]);
    expect(store.queued).toHaveLength(2);
    expect(new Set(store.queued).size).toBe(2);
  });

  it('when a replica stops after writing the state and before queueing then a later tick queues the owed notices once', async () => {
    const rule = store.addRule(INVALID_EMAILS);
    store.counters.openErrors = { INVALID_EMAIL_ADDRESS: 1 };
    store.failNextEnqueue = true;

    await expect(replica().run()).rejects.toThrow('the broker went away');
    expect(store.rules.get(rule.id)!.outbox).toMatchObject({ notice: { kind: 'firing', seq: 1 } });

    store.now += MINUTE;
    await tick();

    expect([...new Set(store.queued)].sort()).toEqual([`${rule.id}:1:dest-1`, `${rule.id}:1:dest-2`]);
    expect(store.notices.size).toBe(2);
    expect(store.rules.get(rule.id)!.outbox).toBeNull();
  });

  it('when the rule was edited between the claim and the state write then its old evaluation is dropped without a notice', async () => {
    const rule = store.addRule(INVALID_EMAILS);
    store.counters.openErrors = { INVALID_EMAIL_ADDRESS: 1 };
    const ports = store.evaluatorPorts();
    const claim = ports.rules.claim;
    ports.rules.claim = async (seen, next) => {
      const won = await claim(seen, next);
      const current = store.rules.get(rule.id)!;
      store.rules.set(rule.id, { ...current, stateRev: current.stateRev + 1 }); // the customer saved the rule meanwhile
      return won;
    };

    await new EvaluateAlertsUseCase(ports, { intervalMs: MINUTE, batchSize: 100, consoleUrl: '' }).run();

    expect(store.queued).toEqual([]);
    expect(store.rules.get(rule.id)!.state.status).toBe('ok');
  });

  it('when a disabled rule would breach then it is not evaluated', async () => {
    store.addRule(INVALID_EMAILS, { enabled: false });
    store.counters.openErrors = { INVALID_EMAIL_ADDRESS: 5 };

    expect(await replica().run()).toEqual({ evaluated: 0, notices: 0 });
  });

  it('when the CRM refuses the token at the probe then the CRM connection rule fires, probed once per portal however many rules ask', async () => {
    store.addRule({ kind: 'crm-connection', unreachableMinutes: 15 });
    store.addRule({ kind: 'crm-connection', unreachableMinutes: 60 });
    const probed: number[] = [];
    const ports = { ...store.evaluatorPorts(), probeCrm: async (portalId: number) => (probed.push(portalId), 'refused' as const) };

    await new EvaluateAlertsUseCase(ports, { intervalMs: MINUTE, batchSize: 100, consoleUrl: '' }).run();

    expect(probed).toEqual([7]);
    expect([...store.rules.values()].map((rule) => rule.state.status)).toEqual(['firing', 'firing']);
  });

  it('when the portal already waits for its CRM then the probe is not sent (the wait says enough)', async () => {
    store.addRule({ kind: 'crm-connection', unreachableMinutes: 15 });
    store.counters.crmWait = { reason: 'rate-limited', since: store.now };
    const probed: number[] = [];
    const ports = { ...store.evaluatorPorts(), probeCrm: async (portalId: number) => (probed.push(portalId), 'refused' as const) };

    await new EvaluateAlertsUseCase(ports, { intervalMs: MINUTE, batchSize: 100, consoleUrl: '' }).run();

    expect(probed).toEqual([]);
    expect([...store.rules.values()][0].state.status).toBe('ok');
  });
});
