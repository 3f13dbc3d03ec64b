import axios from 'axios';
import type { ObjectType } from '@ecomm-sync/contracts';
import { syncKeyOf } from '@ecomm-sync/domain';
import type { TestPortal, TestStack } from '@ecomm-sync/testing';

// What a chaos scenario sends, and what it is owed for it in the CRM.

/** The version of every property a message sends: `v1` on create, `v2` on the racing update. */
export const contactOf = (n: number, version: number) => ({
  externalObjectId: `chaos-c-${n}`,
  action: 'UPSERT' as const,
  changedAt: 1_700_000_000_000 + version * 10_000_000 + n,
  properties: { email: `chaos-${n}@example.com`, firstname: `First ${n} v${version}`, lastname: `Last ${n} v${version}` },
});
export const dealOf = (n: number, version: number) => ({
  externalObjectId: `chaos-d-${n}`,
  action: 'UPSERT' as const,
  changedAt: 1_700_000_000_000 + version * 10_000_000 + n,
  properties: { dealname: `Order ${n} v${version}`, amount: String(n * 10 + version), dealstage: version === 1 ? 'checkout_pending' : 'checkout_completed' },
  associations: { CONTACT: [`chaos-c-${n}`] },
});

export interface SyncRequest {
  objectType: ObjectType;
  messages: (ReturnType<typeof contactOf> | ReturnType<typeof dealOf>)[];
}

/** Creates of contacts and deals, each followed a few requests later by the update of the same objects. */
export function buildRequests(half: number, batchSize: number): SyncRequest[] {
  const creates: SyncRequest[] = [];
  for (let from = 0; from < half; from += batchSize) {
    const ns = Array.from({ length: Math.min(batchSize, half - from) }, (_, i) => from + i);
    creates.push({ objectType: 'CONTACT', messages: ns.map((n) => contactOf(n, 1)) });
    creates.push({ objectType: 'DEAL', messages: ns.map((n) => dealOf(n, 1)) });
  }
  const requests: SyncRequest[] = [];
  const lag = 4;
  for (let i = 0; i < creates.length + lag; i++) {
    if (i < creates.length) requests.push(creates[i]);
    const updated = creates[i - lag];
    if (updated) {
      const ns = updated.messages.map((message) => Number(message.externalObjectId.split('-').pop()));
      requests.push({ objectType: updated.objectType, messages: ns.map((n) => (updated.objectType === 'CONTACT' ? contactOf(n, 2) : dealOf(n, 2))) });
    }
  }
  return requests;
}

/** Sends the requests at a fixed rate; each is sent again until acknowledged (204). */
export async function sendPaced(
  stack: TestStack,
  portal: TestPortal,
  requests: SyncRequest[],
  perSecond: number,
  count: (status: number) => void,
  onSend: (index: number) => void,
) {
  const http = axios.create({
    baseURL: `${stack.gatewayUrl}/extensions/ecomm`,
    params: { hapikey: portal.apiKey },
    validateStatus: () => true,
    timeout: 15_000,
  });
  const sendOne = async (request: SyncRequest) => {
    const deadline = Date.now() + 5 * 60_000;
    for (;;) {
      const status = await http
        .put('/v2/sync/messages', { storeId: 'default', objectType: request.objectType, messages: request.messages })
        .then((response) => response.status)
        .catch(() => 0);
      if (status === 204) return;
      count(status);
      if (status >= 400 && status < 500 && status !== 429) throw new Error(`the gateway refused a valid request with ${status}`);
      if (Date.now() > deadline) throw new Error('a request was not acknowledged within 5 minutes');
      await new Promise((resolve) => setTimeout(resolve, 250)); // an integrator's back-off before sending again
    }
  };
  const inFlight: Promise<void>[] = [];
  const interval = 1000 / perSecond;
  const start = Date.now();
  for (let index = 0; index < requests.length; index++) {
    const due = start + index * interval;
    if (due > Date.now()) await new Promise((resolve) => setTimeout(resolve, due - Date.now()));
    onSend(index);
    inFlight.push(sendOne(requests[index]));
  }
  await Promise.all(inFlight);
}

export interface ExpectedObject {
  kind: 'contacts' | 'deals';
  n: number;
  syncKey: string;
  properties: Record<string, string>;
}

export function expectedObjects(half: number, tenant: { portalId: number; appId: null }): ExpectedObject[] {
  const objects: ExpectedObject[] = [];
  for (let n = 0; n < half; n++) {
    objects.push({
      kind: 'contacts',
      n,
      syncKey: syncKeyOf({ tenant, storeId: 'default', objectType: 'CONTACT' }, `chaos-c-${n}`, 0),
      properties: contactOf(n, 2).properties,
    });
    const { dealname, amount, dealstage } = dealOf(n, 2).properties;
    objects.push({
      kind: 'deals',
      n,
      syncKey: syncKeyOf({ tenant, storeId: 'default', objectType: 'DEAL' }, `chaos-d-${n}`, 0),
      properties: { dealname, amount, dealstage },
    });
  }
  return objects;
}
