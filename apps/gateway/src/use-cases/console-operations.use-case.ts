import type { ConsoleCrmAccount, ConsoleDeadLetters, ConsoleServiceReadiness } from '@ecomm-sync/contracts';
import { portalOfCrmAccount, readinessOf, type ServiceAddress } from '@ecomm-sync/domain';
import type { PeekedMessage, QueueName, QueueStats } from '@ecomm-sync/messaging';
import type { CrmHealth } from './read-sync-status.use-case';

/** The broker, the services and the CRM budgets, as the operator's pages read them (main wires them). */
export interface OperatorViewPort {
  queues(): Promise<QueueStats[]>;
  peekDeadLetters(queue: QueueName, limit: number): Promise<PeekedMessage[]>;
  /** GET <url>/readyz: its status and body, or why it did not answer. */
  askReadiness(url: string): Promise<{ status: number; body: unknown } | { unreachable: string }>;
  crmBudgets(): Promise<{ accountKey: string; usedInWindow: number; usedToday: number; pausedUntil: number | null; reason: string | null }[]>;
  crmHealth(portalId: number): Promise<CrmHealth>;
}

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

  async readiness(): Promise<ConsoleServiceReadiness[]> {
    return Promise.all(this.services.map(async ({ service, url }) => ({ service, url, ...readinessOf(await this.port.askReadiness(url)) })));
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
