import type { ConsoleCrmAccount, ConsoleDeadLetters, ConsoleServiceReadiness } from '@ecomm-sync/contracts';
import { portalOfCrmAccount, runBounded, serviceReadinessOf, type ReadyzAnswer, type ServiceAddress } from '@ecomm-sync/domain';
import type { PeekedMessage, QueueName, QueueStats } from '@ecomm-sync/messaging';
import type { CrmHealth } from './read-sync-status.use-case';

/** The broker, the services and the CRM budgets, as the operator's pages read them (main wires them). */
export interface OperatorViewPort {
  queues(): Promise<QueueStats[]>;
  peekDeadLetters(queue: QueueName, limit: number): Promise<PeekedMessage[]>;
  /** Every address a host resolves to (a headless Service: one per pod), or why it resolved to none. */
  resolveReplicas(host: string): Promise<{ addresses: string[] } | { unresolved: string }>;
  /** GET <url>/readyz from the replica at `address`: its status and body, or why it did not answer. */
  askReadiness(url: string, address: string): Promise<ReadyzAnswer>;
  crmBudgets(): Promise<{ accountKey: string; usedInWindow: number; usedToday: number; pausedUntil: number | null; reason: string | null }[]>;
  crmHealth(portalId: number): Promise<CrmHealth>;
}

/** A URL's host as a resolver takes it: an IPv6 literal without its brackets. */
const hostOf = (url: string) => new URL(url).hostname.replace(/^\[(.*)\]$/, '$1');

/** Replicas asked at once, over all services: a large deployment must not open a connection to every pod at the same moment. */
const REPLICAS_ASKED_AT_ONCE = 8;

/** The operator's view beyond queue depths (decision 0036): dead letters, readiness, CRM budgets. */
export class ConsoleOperationsUseCase {
  constructor(
    private readonly port: OperatorViewPort,
    /** The gateway itself first, then the services named in SERVICE_READINESS_URLS. */
    private readonly services: ServiceAddress[],
  ) {}

  async deadLetters(queue: QueueName, limit: number): Promise<ConsoleDeadLetters> {
    // One after the other: while the peek holds messages unacked, the broker does not count them.
    const stats = await this.port.queues();
    const results = await this.port.peekDeadLetters(queue, limit);
    const total = stats.find((s) => s.queue === queue)?.deadLetters ?? results.length;
    return { queue, total: Math.max(total, results.length), limit, results };
  }

  /** Each service's replicas (the addresses its host resolves to), each asked for /readyz (decision 0054). */
  async readiness(): Promise<ConsoleServiceReadiness[]> {
    const resolved = await Promise.all(this.services.map(({ url }) => this.port.resolveReplicas(hostOf(url))));
    const asks = this.services.flatMap(({ url }, i) => {
      const found = resolved[i];
      return 'addresses' in found ? found.addresses.map((address) => ({ service: i, url, address, answer: undefined as ReadyzAnswer | undefined })) : [];
    });
    await runBounded(asks, REPLICAS_ASKED_AT_ONCE, async (ask) => {
      ask.answer = await this.port.askReadiness(ask.url, ask.address);
    });
    return this.services.map(({ service, url }, i) => {
      const found = resolved[i];
      const answers = asks.filter((ask) => ask.service === i).map(({ address, answer }) => ({ address, answer: answer! }));
      return { service, url, ...serviceReadinessOf('addresses' in found ? answers : found) };
    });
  }

  async crmAccounts(): Promise<ConsoleCrmAccount[]> {
    const budgets = await this.port.crmBudgets();
    return Promise.all(
      budgets.map(async (budget) => {
        const portalId = portalOfCrmAccount(budget.accountKey);
        const health = portalId === null ? null : await this.port.crmHealth(portalId);
        return { ...budget, portalId, health: health && { state: health.state, message: health.message, parkedChanges: health.parkedChanges } };
      }),
    );
  }
}
