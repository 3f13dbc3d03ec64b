import { type Request, Router } from 'express';
import { createValidator, v1SyncMessagesSchema, v2SyncSubmissionSchema, type Tenant } from '@ecomm-sync/contracts';
import { parseWith } from '@ecomm-sync/runtime';
import type { AcceptSyncBatchUseCase } from '../use-cases/accept-sync-batch.use-case';
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
    await acceptSyncBatch.acceptV1(grantOf<Tenant>(res), objectType, messages, requestBytes(req));
    res.status(204).end();
  });

  router.put('/extensions/ecomm/v2/sync/messages', ...customerData, async (req, res) => {
    const submission = parseWith(validateV2, req.body);
    await acceptSyncBatch.acceptV2(grantOf<Tenant>(res), submission, requestBytes(req));
    res.status(204).end();
  });

  return router;
}

/** The request body's size: what the gateway holds while its batch waits for the portal's pace. */
function requestBytes(req: Request): number {
  const declared = Number(req.headers['content-length']);
  return Number.isFinite(declared) && declared > 0 ? declared : Buffer.byteLength(JSON.stringify(req.body ?? null));
}
