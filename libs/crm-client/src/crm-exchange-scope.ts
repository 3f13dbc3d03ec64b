import { AsyncLocalStorage } from 'node:async_hooks';

/** The tenant whose work a CRM request is sent for. */
export interface SendingTenant {
  portalId: number;
  /** null: the portal's own (direct) tenant. */
  appId: string | null;
}

const sending = new AsyncLocalStorage<SendingTenant>();

/**
 * Runs `work` with every CRM request it sends recorded as sent for `tenant` (the request log's
 * `appId`, decision 0051, addendum of 2026-12-06): an application's console lists the requests
 * sent for its own objects by CRM id (updates, archives, associations) without another tenant's
 * requests that touched the same CRM object. The CRM clients need no tenant in their calls.
 */
export function sendingFor<T>(tenant: SendingTenant, work: () => T): T {
  return sending.run({ portalId: tenant.portalId, appId: tenant.appId }, work);
}

/** The tenant the current work sends for, if it said. */
export function currentSendingTenant(): SendingTenant | undefined {
  return sending.getStore();
}
