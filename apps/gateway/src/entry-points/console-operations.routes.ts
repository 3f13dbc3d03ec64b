import { Router } from 'express';
import { AppError, staticBearerAuth } from '@ecomm-sync/runtime';
import { isQueueName, QUEUES, type QueueName } from '@ecomm-sync/messaging';
import type { ConsoleOperationsUseCase } from '../use-cases/console-operations.use-case';
import { integerParam } from './query-params';

const queueParam = (name: string): QueueName => {
  if (!isQueueName(name)) throw AppError.notFound(`No queue ${name}; the queues are ${Object.keys(QUEUES).join(', ')}`);
  return name;
};

/** The operator's pages beyond the queues (decision 0036), with the admin token like the rest of /ops. */
export function consoleOperationsRoutes(operations: ConsoleOperationsUseCase | undefined, adminToken: string): Router {
  const router = Router();
  const base = '/console/api/v1/ops';
  const admin = staticBearerAuth(adminToken, 'The console operations API');
  const view = () => {
    if (!operations) throw AppError.notFound('This gateway has no view of the broker and the services');
    return operations;
  };

  router.get(`${base}/queues/:queue/dead-letters`, admin, async (req, res) => {
    const queue = queueParam(String(req.params.queue));
    res.json(await view().deadLetters(queue, integerParam(req.query, 'limit', 20, 1, 100)));
  });
  router.get(`${base}/services`, admin, async (_req, res) => {
    res.json({ results: await view().readiness() });
  });
  router.get(`${base}/crm-accounts`, admin, async (_req, res) => {
    res.json({ results: await view().crmAccounts() });
  });
  return router;
}
