import axios from 'axios';

/** The built-in CRM's admin API: one account per portal of the sync service. */
export class CrmAdminClient {
  constructor(
    private readonly baseUrl: string,
    private readonly adminToken: string,
  ) {}

  async ensureAccount(portalId: number, token: string, pipelineLimit?: number): Promise<void> {
    await axios.put(
      `${this.baseUrl}/crm/admin/v1/accounts/${portalId}`,
      { token, ...(pipelineLimit === undefined ? {} : { pipelineLimit }) },
      { headers: { authorization: `Bearer ${this.adminToken}` }, timeout: 15_000 },
    );
  }
}
