import { type Request, type Response, Router } from 'express';
import { createValidator, v1SyncMessagesSchema, v2SyncSubmissionSchema, type Tenant } from '@ecomm-sync/contracts';
import { bodyBytesOf, parseWith } from '@ecomm-sync/runtime';
import type { AcceptSyncBatchUseCase, HeldRequest } from '../use-cases/accept-sync-batch.use-case';
import { grantOf, type Authorizer } from './authenticate';
import { objectTypeParam } from './query-params';

const validateV1 = createValidator(v1SyncMessagesSchema);
const validateV2 = createValidator(v2SyncSubmissionSchema);

/**
 * Sync submissions: validated, published durably, answered 204 (SPEC.md point 4). The customer's
 * OAuth token (application mode) or the portal's key or private-app token (direct mode).
 */
export function syncRoutes(acceptSyncBatch: AcceptSyncBatchUseCase, auth: Authorizer): Router {
  const router = Router();
  const customerData = auth.require(auth.customerData);

  router.put('/extensions/ecomm/v1/sync-messages/:objectType', ...customerData, async (req, res) => {
    const objectType = objectTypeParam(req.params.objectType, 'The object type in the path');
    const messages = parseWith(validateV1, req.body);
    await acceptSyncBatch.acceptV1(grantOf<Tenant>(res), objectType, messages, heldRequest(req, res));
    res.status(204).end();
  });

  router.put('/extensions/ecomm/v2/sync/messages', ...customerData, async (req, res) => {
    const submission = parseWith(validateV2, req.body);
    await acceptSyncBatch.acceptV2(grantOf<Tenant>(res), submission, heldRequest(req, res));
    res.status(204).end();
  });

  return router;
}

/**
 * What a batch's wait for its portal's pace needs of its request: the body's size (held in memory
 * meanwhile) and a signal that aborts when the connection closes before the answer was sent.
 */
function heldRequest(req: Request, res: Response): HeldRequest {
  const controller = new AbortController();
  res.once('close', () => {
    if (!res.writableEnded) controller.abort();
  });
  // jsonBody (app-wide, before these routes) counted the body it parsed; its declared length otherwise.
  return { bytes: bodyBytesOf(req) ?? (Number(req.headers['content-length']) || 0), signal: controller.signal };
}
