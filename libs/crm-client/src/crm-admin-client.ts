import axios, { type AxiosRequestConfig } from 'axios';
import { toCrmError } from './crm-errors';

/** The hosted CRM's limits a built-in CRM account emulates (decision 0021). */
export interface CrmAccountLimits {
  /** Requests in any rolling window of intervalMs (hosted tiers: 100, 190, 250). */
  burstPer10s: number;
  /** The rolling window: 10 000 ms unless given (shorter only for tests against a real clock). */
  intervalMs?: number;
  /** Requests per day from midnight in timeZone (hosted tiers: 250 000, 625 000, 1 000 000). */
  dailyCap: number;
  /** IANA time zone of the account, such as UTC or Europe/Berlin. */
  timeZone: string;
  /** Search requests per rolling second (hosted: about 4). */
  searchPerSecond: number;
  /** A property value that makes a batch input invalid on demand (answered in a 207). */
  invalidMarker?: string;
}

/** The limits in force for an account: its own (`account`), or the CRM's environment defaults; null: none. */
export interface CrmAccountLimitsState {
  portalId: number;
  limits: (CrmAccountLimits & { intervalMs: number }) | null;
  source: 'account' | 'environment';
}

/** What a limited account used, as the CRM process counted it. */
export interface CrmAccountUsage {
  portalId: number;
  /** Requests answered per epoch second, 429s included (`limited` counts those). */
  perSecond: { second: number; answered: number; limited: number }[];
  /** The most requests answered in any rolling 10 000 ms, measured exactly. */
  maxIn10s: number;
  totals: { answered: number; limited: number };
  daily: { used: number; nextResetAt: number } | null;
}

/** The built-in CRM's admin API: one account per portal of the sync service. */
export class CrmAdminClient {
  constructor(
    private readonly baseUrl: string,
    private readonly adminToken: string,
  ) {}

  /** Fails with a CrmRequestError when the CRM does not answer or refuses (callers answer 502). */
  async ensureAccount(portalId: number, token: string, pipelineLimit?: number): Promise<void> {
    await this.request({
      method: 'PUT',
      url: `/crm/admin/v1/accounts/${portalId}`,
      data: { token, ...(pipelineLimit === undefined ? {} : { pipelineLimit }) },
    });
  }

  /** Sets the account's own limits; null switches them off whatever the CRM's environment says. */
  async setLimits(portalId: number, limits: CrmAccountLimits | null): Promise<CrmAccountLimitsState> {
    return this.request({
      method: 'PUT',
      url: `/crm/admin/v1/accounts/${portalId}/limits`,
      data: JSON.stringify(limits),
      headers: { 'content-type': 'application/json' },
    });
  }

  async getLimits(portalId: number): Promise<CrmAccountLimitsState> {
    return this.request({ method: 'GET', url: `/crm/admin/v1/accounts/${portalId}/limits` });
  }

  /** Sets the daily count to 0 now; the next reset is at `nextResetAt` (epoch ms), or else the account's next midnight. */
  async resetDaily(portalId: number, nextResetAt?: number): Promise<{ portalId: number; dailyUsed: number; nextResetAt: number }> {
    return this.request({
      method: 'POST',
      url: `/crm/admin/v1/accounts/${portalId}/limits/reset-daily`,
      data: nextResetAt === undefined ? {} : { nextResetAt },
    });
  }

  async usage(portalId: number): Promise<CrmAccountUsage> {
    return this.request({ method: 'GET', url: `/crm/admin/v1/accounts/${portalId}/usage` });
  }

  private async request<T>(config: AxiosRequestConfig): Promise<T> {
    const full = {
      ...config,
      url: `${this.baseUrl}${config.url}`,
      headers: { ...config.headers, authorization: `Bearer ${this.adminToken}` },
      timeout: 15_000,
    };
    const response = await axios.request<T>(full).catch((error: unknown) => {
      throw toCrmError(error, full);
    });
    return response.data;
  }
}
