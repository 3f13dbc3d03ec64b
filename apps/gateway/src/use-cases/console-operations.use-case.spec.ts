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

  it('when the services are asked for readiness, then each answer says ready, not ready with what fails, or no answer', async () => {
    const answers: Record<string, Awaited<ReturnType<OperatorViewPort['askReadiness']>>> = {
      'http://gateway/readyz': { status: 200, body: {} },
      'http://mapper/readyz': { status: 503, body: { failing: ['rabbitmq'] } },
      'http://applier/readyz': { unreachable: 'ECONNREFUSED' },
    };
    const port = anOperatorView({ askReadiness: async (url) => answers[url] });
    const useCase = new ConsoleOperationsUseCase(port, [
      { service: 'gateway', url: 'http://gateway/readyz' },
      { service: 'mapper', url: 'http://mapper/readyz' },
      { service: 'applier', url: 'http://applier/readyz' },
    ]);

    expect(await useCase.readiness()).toEqual([
      { service: 'gateway', url: 'http://gateway/readyz', ready: true, status: 200, detail: 'ready' },
      { service: 'mapper', url: 'http://mapper/readyz', ready: false, status: 503, detail: 'not ready: rabbitmq failing' },
      { service: 'applier', url: 'http://applier/readyz', ready: false, status: null, detail: 'no answer: ECONNREFUSED' },
    ]);
  });

  it("when CRM budgets are listed, then a portal's account carries its CRM health, and an OAuth app's account shared by portals none", async () => {
    const budget = { usedInWindow: 5, usedToday: 50, pausedUntil: null, reason: null };
    const port = anOperatorView({
      crmBudgets: async () => [
        { accountKey: 'builtin:1001', ...budget },
        { accountKey: 'hosted:https://api.crm.example.com:app:client-9', ...budget },
      ],
    });

    expect(await new ConsoleOperationsUseCase(port, []).crmAccounts()).toEqual([
      { accountKey: 'builtin:1001', ...budget, portalId: 1001, health: { state: 'rate-limited', message: 'rate limited until …', parkedChanges: 7 } },
      { accountKey: 'hosted:https://api.crm.example.com:app:client-9', ...budget, portalId: null, health: null },
    ]);
  });
});
