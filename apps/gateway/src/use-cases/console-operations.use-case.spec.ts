import type { PeekedMessage, QueueStats } from '@ecomm-sync/messaging';
import { ConsoleOperationsUseCase, type OperatorViewPort } from './console-operations.use-case';
import type { CrmHealth } from './read-sync-status.use-case';

const stats = (queue: QueueStats['queue'], deadLetters: number): QueueStats => ({ queue, depth: 0, bulkDepth: 0, consumers: 1, retrying: 0, deadLetters });
const peeked = (n: number): PeekedMessage => ({
  messageId: `m${n}`,
  contentType: 'application/json',
  timestamp: n,
  headers: {},
  body: `{"n":${n}}`,
  truncated: false,
});
const healthOf = (portalId: number): CrmHealth => ({
  portalId,
  state: 'rate-limited',
  message: 'rate limited until …',
  since: 1,
  until: 2,
  lastAnswer: '429',
  tries: 1,
  parkedChanges: 7,
});

/** The operator's port in memory: what the broker, the services and the budgets would answer. */
function anOperatorView(overrides: Partial<OperatorViewPort> = {}): OperatorViewPort {
  return {
    queues: async () => [stats('applier.mapped-changes', 12), stats('mapper.sync-batches', 0)],
    peekDeadLetters: async (_queue, limit) => [peeked(1), peeked(2), peeked(3)].slice(0, limit),
    resolveReplicas: async () => ({ addresses: ['10.0.0.5'] }),
    askReadiness: async () => ({ status: 200, body: { ready: true } }),
    crmBudgets: async () => [],
    crmHealth: async (portalId) => healthOf(portalId),
    ...overrides,
  };
}

describe('ConsoleOperationsUseCase', () => {
  it('when dead letters are peeked, then the page has the total the broker counts and at most the limit', async () => {
    const useCase = new ConsoleOperationsUseCase(anOperatorView(), []);
    expect(await useCase.deadLetters('applier.mapped-changes', 2)).toEqual({
      queue: 'applier.mapped-changes',
      total: 12,
      limit: 2,
      results: [peeked(1), peeked(2)],
    });
  });

  it('when the broker counts fewer dead letters than were peeked (messages arrived meanwhile), then the total is never below what is shown', async () => {
    const useCase = new ConsoleOperationsUseCase(anOperatorView(), []);
    expect((await useCase.deadLetters('mapper.sync-batches', 10)).total).toBe(3);
  });

  it('when each service has one replica, then each answer says ready, not ready with what fails, or no answer, as before replicas', async () => {
    const answers: Record<string, Awaited<ReturnType<OperatorViewPort['askReadiness']>>> = {
      'http://gateway:3000': { status: 200, body: {} },
      'http://mapper:3201': { status: 503, body: { failing: ['rabbitmq'] } },
      'http://applier:3202': { unreachable: 'ECONNREFUSED' },
    };
    const port = anOperatorView({ askReadiness: async (url) => answers[url] });
    const useCase = new ConsoleOperationsUseCase(port, [
      { service: 'gateway', url: 'http://gateway:3000' },
      { service: 'mapper', url: 'http://mapper:3201' },
      { service: 'applier', url: 'http://applier:3202' },
    ]);

    expect((await useCase.readiness()).map(({ service, state, ready, status, detail }) => ({ service, state, ready, status, detail }))).toEqual([
      { service: 'gateway', state: 'ready', ready: true, status: 200, detail: 'ready' },
      { service: 'mapper', state: 'not ready', ready: false, status: 503, detail: 'not ready: rabbitmq failing' },
      { service: 'applier', state: 'not ready', ready: false, status: null, detail: 'no answer: ECONNREFUSED' },
    ]);
  });

  it('when a host resolves to several replicas, then each is asked at its address, and a host that resolves to none says why', async () => {
    const asked: string[] = [];
    const port = anOperatorView({
      resolveReplicas: async (host) => (host === 'mapper-replicas' ? { addresses: ['10.0.0.5', '10.0.0.6', '10.0.0.7'] } : { unresolved: `ENOTFOUND ${host}` }),
      askReadiness: async (url, address) => {
        asked.push(`${url} at ${address}`);
        return address === '10.0.0.6' ? { unreachable: 'timeout of 2000ms exceeded' } : { status: 200, body: {} };
      },
    });
    const useCase = new ConsoleOperationsUseCase(port, [
      { service: 'mapper', url: 'http://mapper-replicas:3201' },
      { service: 'applier', url: 'http://applier-replicas:3202' },
    ]);

    const [mapper, applier] = await useCase.readiness();
    expect(asked.sort()).toEqual([
      'http://mapper-replicas:3201 at 10.0.0.5',
      'http://mapper-replicas:3201 at 10.0.0.6',
      'http://mapper-replicas:3201 at 10.0.0.7',
    ]);
    expect(mapper).toMatchObject({ state: 'partly ready', readyReplicas: 2, detail: '2 of 3 replicas ready; 10.0.0.6: no answer: timeout of 2000ms exceeded' });
    expect(applier).toEqual({
      service: 'applier',
      url: 'http://applier-replicas:3202',
      state: 'not ready',
      ready: false,
      status: null,
      detail: 'no address: ENOTFOUND applier-replicas',
      readyReplicas: 0,
      replicas: [],
    });
  });

  it('when many replicas are asked, then at most eight answers are awaited at once', async () => {
    let open = 0;
    let most = 0;
    const port = anOperatorView({
      resolveReplicas: async () => ({ addresses: Array.from({ length: 20 }, (_, i) => `10.0.0.${i + 1}`) }),
      askReadiness: async () => {
        most = Math.max(most, ++open);
        await new Promise((resolve) => setImmediate(resolve));
        open--;
        return { status: 200, body: {} };
      },
    });
    const [mapper] = await new ConsoleOperationsUseCase(port, [{ service: 'mapper', url: 'http://mapper-replicas:3201' }]).readiness();
    expect([mapper.detail, most]).toEqual(['20 of 20 replicas ready', 8]);
  });

  it("when CRM budgets are listed, then a portal's account and an OAuth app's in that portal carry its CRM health, and an OAuth app's key of before, shared by portals, none", async () => {
    const budget = { usedInWindow: 5, usedToday: 50, pausedUntil: null, reason: null };
    const port = anOperatorView({
      crmBudgets: async () => [
        { accountKey: 'builtin:1001', ...budget },
        { accountKey: 'hosted:https://api.crm.example.com:app:client-9', ...budget },
        { accountKey: 'hosted:https://api.crm.example.com:app:client-9:1001', ...budget },
      ],
    });

    expect(await new ConsoleOperationsUseCase(port, []).crmAccounts()).toEqual([
      { accountKey: 'builtin:1001', ...budget, portalId: 1001, health: { state: 'rate-limited', message: 'rate limited until …', parkedChanges: 7 } },
      { accountKey: 'hosted:https://api.crm.example.com:app:client-9', ...budget, portalId: null, health: null },
      {
        accountKey: 'hosted:https://api.crm.example.com:app:client-9:1001',
        ...budget,
        portalId: 1001,
        health: { state: 'rate-limited', message: 'rate limited until …', parkedChanges: 7 },
      },
    ]);
  });
});
