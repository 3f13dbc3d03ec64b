import { testInfrastructure, uniqueName } from '../../support';
import { connectDatabase, defaultRuleId, type Database, type NewAlertNotice } from '@ecomm-sync/data-access';
import { INITIAL_ALERT_STATE, type AlertState } from '@ecomm-sync/domain';

const { mongoUrl } = testInfrastructure();
const T = 1_700_000_000_000;
const tenant = { portalId: 41, appId: null };
const firing: AlertState = { status: 'firing', seq: 1, since: T, value: 3, summary: '3 open errors' };

const aNotice = (ruleId: string, seq: number, destinationId: string): NewAlertNotice => ({
  portalId: tenant.portalId,
  appId: null,
  ruleId,
  ruleName: 'Bad e-mails',
  destinationId,
  kind: 'firing',
  seq,
  value: 3,
  summary: '3 open errors',
  body: {
    noticeId: `${ruleId}:${seq}`,
    state: 'firing',
    rule: { id: ruleId, name: 'Bad e-mails', kind: 'open-errors' },
    portalId: 41,
    appId: null,
    storeId: null,
    value: 3,
    summary: '3 open errors',
    at: T,
    link: 'http://console/errors',
  },
  createdAt: T,
});

/**
 * The alert repositories' compare-and-set against the MongoDB-wire server: what makes one evaluation
 * per rule and interval, and one notice per change and destination, however many evaluator replicas
 * run (decision 0053). The evaluator's unit tests stand on a fixture with these semantics; this holds
 * the real repositories to them.
 */
describe('the alert repositories against the MongoDB-wire server', () => {
  let database: Database;

  beforeAll(async () => {
    database = await connectDatabase(mongoUrl, uniqueName('alerts').replace(/-/g, '_'));
  });

  afterAll(async () => {
    await database.connection.dropDatabase();
    await database.close();
  });

  const aRule = () =>
    database.repositories.alertRules.create(
      tenant,
      {
        name: 'Bad e-mails',
        storeId: null,
        enabled: true,
        condition: { kind: 'open-errors', errorType: 'INVALID_EMAIL_ADDRESS', measure: 'count', threshold: 2 },
      },
      T,
    );

  it('when ten replicas claim one due rule at once, then exactly one wins', async () => {
    const rule = await aRule();
    const claims = await Promise.all(Array.from({ length: 10 }, () => database.repositories.alertRules.claim(rule, T + 60_000)));
    expect(claims.filter(Boolean)).toHaveLength(1);
    expect((await database.repositories.alertRules.find(tenant, rule.id))!.nextDueAt).toBe(T + 60_000);
  });

  it('when two replicas write a state over the same read, then one lands with its notice and the other is refused', async () => {
    const rule = await aRule();
    const outbox = { notice: { kind: 'firing' as const, seq: 1, value: 3, summary: '3 open errors' }, at: T };
    const writes = await Promise.all([
      database.repositories.alertRules.writeState(rule, firing, outbox, T),
      database.repositories.alertRules.writeState(rule, firing, outbox, T),
    ]);
    expect(writes.filter(Boolean)).toHaveLength(1);
    const stored = (await database.repositories.alertRules.find(tenant, rule.id))!;
    expect(stored).toMatchObject({ state: firing, stateRev: 1, outbox });
  });

  it("when a change of state still owes its notices, then it is listed until its own change clears it (an older change's clear leaves it)", async () => {
    const rule = await aRule();
    await database.repositories.alertRules.writeState(rule, firing, { notice: { kind: 'firing', seq: 1, value: 3, summary: 's' }, at: T }, T);
    const owing = async () => (await database.repositories.alertRules.owing(T + 1, 100)).map((owed) => owed.id);
    expect(await owing()).toContain(rule.id);

    await database.repositories.alertRules.clearOutbox(rule.id, 0);
    expect(await owing()).toContain(rule.id);
    await database.repositories.alertRules.clearOutbox(rule.id, 1);
    expect(await owing()).not.toContain(rule.id);
  });

  it('when the defaults are ensured twice at once, then the tenant has each once, they cannot be deleted, and another tenant sees none of them', async () => {
    const other = { portalId: 42, appId: null };
    await Promise.all([database.repositories.alertRules.ensureDefaults(other, T), database.repositories.alertRules.ensureDefaults(other, T + 1)]);
    const rules = await database.repositories.alertRules.list(other);
    expect(rules.filter((rule) => rule.defaultKey !== null)).toHaveLength(2);
    // Whichever call inserted a rule first set it up; the other changed nothing.
    expect(rules.every((rule) => rule.state.seq === INITIAL_ALERT_STATE.seq && (rule.createdAt === T || rule.createdAt === T + 1))).toBe(true);
    const [first] = rules;
    expect(await database.repositories.alertRules.remove(other, first.id)).toBe(false);
    expect(await database.repositories.alertRules.find(tenant, defaultRuleId(other, first.defaultKey!))).toBeNull();
  });

  it('when a notice is stored twice and two senders take it at once, then it is one notice and one sender holds it', async () => {
    const [id] = await database.repositories.alertNotices.store([aNotice('rule-x', 1, 'dest-1')]);
    const [again] = await database.repositories.alertNotices.store([aNotice('rule-x', 1, 'dest-1')]);
    expect(again).toBe(id);
    expect((await database.repositories.alertNotices.list(tenant, 100)).filter((notice) => notice.ruleId === 'rule-x')).toHaveLength(1);

    const taken = await Promise.all([database.repositories.alertNotices.take(id, T, T + 30_000), database.repositories.alertNotices.take(id, T, T + 30_000)]);
    expect(taken.filter((notice) => notice !== null)).toHaveLength(1);

    await database.repositories.alertNotices.finish(id, { sent: true, at: T + 5 });
    expect(await database.repositories.alertNotices.take(id, T + 60_000, T + 90_000)).toBeNull();
  });
});
