import axios, { type AxiosResponse } from 'axios';
import type { TestPortal, TestStack } from '@ecomm-sync/test-harness';
import { waitFor } from '@ecomm-sync/testing';

/** An integrator's view of the API: plain HTTP with the portal's key. */
export function gatewayClient(stack: TestStack, portal: TestPortal) {
  const http = axios.create({ baseURL: `${stack.gatewayUrl}/extensions/ecomm`, params: { hapikey: portal.apiKey }, validateStatus: () => true });
  const expectStatus = (response: AxiosResponse, status: number) => {
    if (response.status !== status) throw new Error(`expected ${status}, got ${response.status}: ${JSON.stringify(response.data)}`);
    return response;
  };
  return {
    http,
    putV1: async (objectType: string, messages: unknown) => expectStatus(await http.put(`/v1/sync-messages/${objectType}`, messages), 204),
    putV2: async (submission: unknown) => expectStatus(await http.put('/v2/sync/messages', submission), 204),
    /** Waits until the object was processed and returns its v2 status. */
    processed: (objectType: string, id: string, storeId = 'default') =>
      waitFor(
        async () => {
          const response = await http.get(`/v2/sync/status/${storeId}/${objectType}/${encodeURIComponent(id)}`);
          return response.status === 200 && response.data.lastProcessedAt !== null ? response.data : undefined;
        },
        { timeoutMs: 30_000, message: `${objectType} ${id} to be processed` },
      ),
  };
}
