import type { ConsoleActivity, ConsoleReport, ConsoleStoreReport, Tenant } from '@ecomm-sync/contracts';
import type { CrmPort } from '@ecomm-sync/crm-client';
import type { ConsoleScope, Repositories } from '@ecomm-sync/data-access';
import { ACTIVITY_WINDOWS, activityBuckets, activityStart, storeReport, type ActivityWindow } from '@ecomm-sync/domain';
import { AppError } from '@ecomm-sync/runtime';

/** Objects of one type read per store for a report; beyond it the report says `partial`. */
export const REPORT_LIMIT = 2_000;
const DEAL_PROPERTIES = ['dealstage', 'amount'];
const LINE_ITEM_PROPERTIES = ['name', 'price', 'quantity', 'amount'];

/**
 * The reporting dashboard per store: the store's linked deals and line items, read from the
 * portal's CRM through its connection (so its request budget), aggregated by storeReport.
 */
export class ConsoleReportUseCase {
  constructor(
    private readonly repositories: Pick<Repositories, 'consoleOverview' | 'consoleReport'>,
    /** The portal's CRM port (CrmConnections); null when the portal is not known. */
    private readonly crmFor: (portalId: number) => Promise<CrmPort | null>,
    private readonly clock: () => number = Date.now,
  ) {}

  /**
   * One portal's report at a time: every store costs the portal's CRM up to 40 reads, so an
   * application-wide report (a developer key without portalId) would read every installed portal's
   * CRM in one request, and one portal's failure would answer for all.
   */
  async report(scope: ConsoleScope, storeId?: string): Promise<ConsoleReport> {
    if (scope.portalId === undefined)
      throw AppError.badRequest(
        'portalId is required with a developer API key: the report reads one portal’s CRM at a time; add ?portalId=<a portal that installed the application>',
      );
    const [counts, labels] = await Promise.all([
      this.repositories.consoleOverview.objectCounts(scope, this.clock()),
      this.repositories.consoleOverview.storeLabels(scope),
    ]);
    const stores = new Map<string, { tenant: Tenant; storeId: string }>();
    for (const row of counts) {
      if (row.inCrm === 0 || (row.objectType !== 'DEAL' && row.objectType !== 'LINE_ITEM') || (storeId !== undefined && row.storeId !== storeId)) continue;
      stores.set(JSON.stringify([row.portalId, row.appId, row.storeId]), { tenant: { portalId: row.portalId, appId: row.appId }, storeId: row.storeId });
    }
    const labelOf = (tenant: Tenant, id: string) =>
      labels.find((l) => l.portalId === tenant.portalId && l.appId === tenant.appId && l.storeId === id)?.label ?? (id === 'default' ? 'Default' : id);
    const reports: ConsoleStoreReport[] = [];
    // One store after the other: each reads through its portal's request budget.
    for (const { tenant, storeId: id } of [...stores.values()].sort((a, b) => a.tenant.portalId - b.tenant.portalId || a.storeId.localeCompare(b.storeId))) {
      const crm = await this.crmFor(tenant.portalId);
      if (!crm) continue;
      const [deals, lineItems] = [
        await this.repositories.consoleReport.crmIds({ tenant, storeId: id, objectType: 'DEAL' }, REPORT_LIMIT),
        await this.repositories.consoleReport.crmIds({ tenant, storeId: id, objectType: 'LINE_ITEM' }, REPORT_LIMIT),
      ];
      const [dealObjects, itemObjects] = await readOrExplain(
        async () => [await crm.batchRead('DEAL', deals.ids, DEAL_PROPERTIES), await crm.batchRead('LINE_ITEM', lineItems.ids, LINE_ITEM_PROPERTIES)] as const,
      );
      reports.push({
        portalId: tenant.portalId,
        appId: tenant.appId ?? null,
        storeId: id,
        label: labelOf(tenant, id),
        ...storeReport(dealObjects, itemObjects),
        partial: deals.more || lineItems.more,
      });
    }
    return { stores: reports };
  }
}

/** The CRM not answering, or refusing, is the CRM's failure, not the caller's: 502 saying so. */
async function readOrExplain<T>(read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (error) {
    throw new AppError(502, `The CRM could not be read for the report: ${error instanceof Error ? error.message : String(error)}; try again shortly`);
  }
}

/** The overview's chart: raw messages by their receivedAt, objects by their last applied time (lastProcessedAt). */
export class ConsoleActivityUseCase {
  constructor(
    private readonly repositories: Pick<Repositories, 'consoleActivity'>,
    private readonly clock: () => number = Date.now,
  ) {}

  async activity(scope: ConsoleScope, window: ActivityWindow): Promise<ConsoleActivity> {
    const now = this.clock();
    const { received, applied, more } = await this.repositories.consoleActivity.times(scope, activityStart(window, now), 50_000);
    return { window, bucketMs: ACTIVITY_WINDOWS[window].bucketMs, buckets: activityBuckets(received, applied, window, now), partial: more };
  }
}
