import axios from 'axios';

/** GET <url>/readyz with a short timeout: its status and body whatever the status, or why there was no answer. */
export async function askReadiness(url: string): Promise<{ status: number; body: unknown } | { unreachable: string }> {
  try {
    const response = await axios.get(`${url}/readyz`, { timeout: 2_000, validateStatus: () => true, maxRedirects: 0 });
    return { status: response.status, body: response.data };
  } catch (error) {
    return { unreachable: error instanceof Error ? error.message : String(error) };
  }
}
