import axios from 'axios';
import { toCrmError } from './http-crm-client';

/** The built-in CRM's admin API: one account per portal of the sync service. */
export class CrmAdminClient {
  constructor(
    private readonly baseUrl: string,
    private readonly adminToken: string,
  ) {}

  /** Fails with a CrmRequestError when the CRM does not answer or refuses (callers answer 502). */
  async ensureAccount(portalId: number, token: string, pipelineLimit?: number): Promise<void> {
    const config = {
      method: 'PUT',
      url: `${this.baseUrl}/crm/admin/v1/accounts/${portalId}`,
      data: { token, ...(pipelineLimit === undefined ? {} : { pipelineLimit }) },
      headers: { authorization: `Bearer ${this.adminToken}` },
      timeout: 15_000,
    };
    await axios.request(config).catch((error: unknown) => {
      throw toCrmError(error, config);
    });
  }
}
