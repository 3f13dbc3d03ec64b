import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import axios from 'axios';
import type { ReadyzAnswer } from '@ecomm-sync/domain';

/** A replica that does not answer within this is reported as not answering; the page polls every 5 s. */
const REPLICA_TIMEOUT_MS = 2_000;

/**
 * A connection per question: a kept-alive one is pooled by host and port, not by the address
 * `lookup` chose, so a later question to another replica would ride it and get the first one's answer.
 */
const noReuse = { httpAgent: new http.Agent({ keepAlive: false }), httpsAgent: new https.Agent({ keepAlive: false }) };

/**
 * GET <url>/readyz from the replica at `address`, with a short timeout: its status and body whatever
 * the status, or why there was no answer. The connection goes to `address` while the URL keeps its
 * host (the Host header, and the TLS name of an https URL).
 */
export async function askReadiness(url: string, address: string, timeoutMs = REPLICA_TIMEOUT_MS): Promise<ReadyzAnswer> {
  try {
    const response = await axios.get(`${url}/readyz`, {
      timeout: timeoutMs,
      validateStatus: () => true,
      maxRedirects: 0,
      // Straight to the replica: a proxy from the environment would answer for whichever pod it reaches.
      proxy: false,
      ...noReuse,
      lookup: async () => ({ address, family: isIP(address) === 6 ? 6 : 4 }),
    });
    return { status: response.status, body: response.data };
  } catch (error) {
    return { unreachable: error instanceof Error ? error.message : String(error) };
  }
}
