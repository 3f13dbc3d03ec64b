import axios, { type AxiosResponse } from 'axios';
import { type TestPortal, type TestStack, waitFor } from '@ecomm-sync/testing';

/** The v2 sync status record (SPEC.md), as the tests read it. */
export interface ObjectStatus {
  storeId: string;
  objectType: string;
  externalObjectId: string;
  crmId: number | null;
  lastProcessedAt: number | null;
  errors: { type: string; status: string; details: string; [field: string]: unknown }[];
}

/** The CRM id of a status that must have one; a test fails here, clearly, when it has none. */
export function requireCrmId(crmId: number | null): number {
  if (crmId === null) throw new Error('expected the object to have a CRM id, it has none');
  return crmId;
}

/**
 * An integrator's view of the API: plain HTTP with the portal's key (direct mode) or the OAuth
 * access token of an installed application (application mode).
 */
export function gatewayClient(stack: TestStack, credential: Pick<TestPortal, 'apiKey'> | { accessToken: string }) {
  const http = axios.create({
    baseURL: `${stack.gatewayUrl}/extensions/ecomm`,
    validateStatus: () => true,
    ...('apiKey' in credential ? { params: { hapikey: credential.apiKey } } : { headers: { authorization: `Bearer ${credential.accessToken}` } }),
  });
  const expectStatus = (response: AxiosResponse, status: number) => {
    if (response.status !== status) throw new Error(`expected ${status}, got ${response.status}: ${JSON.stringify(response.data)}`);
    return response;
  };
  /** Polls an object's v2 status until `condition` holds, and returns that status. */
  const statusWhen = (objectType: string, id: string, condition: (status: ObjectStatus) => boolean, message: string, storeId = 'default') =>
    waitFor(
      async () => {
        const response = await http.get(`/v2/sync/status/${storeId}/${objectType}/${encodeURIComponent(id)}`);
        return response.status === 200 && condition(response.data) ? (response.data as ObjectStatus) : undefined;
      },
      { timeoutMs: 30_000, message },
    );
  return {
    http,
    putV1: async (objectType: string, messages: unknown) => expectStatus(await http.put(`/v1/sync-messages/${objectType}`, messages), 204),
    putV2: async (submission: unknown) => expectStatus(await http.put('/v2/sync/messages', submission), 204),
    statusWhen,
    /** Waits until the object was processed and returns its v2 status. */
    processed: (objectType: string, id: string, storeId = 'default') =>
      statusWhen(objectType, id, (status) => status.lastProcessedAt !== null, `${objectType} ${id} to be processed`, storeId),
  };
}
