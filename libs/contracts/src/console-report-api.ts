/** The console's reporting page (issue 14, page 6): per store, from the built-in CRM's data. */
export interface ConsoleStoreReport {
  portalId: number;
  appId: string | null;
  storeId: string;
  label: string;
  revenueByStage: { stage: string; label: string; deals: number; revenue: number }[];
  abandonedCheckouts: { count: number; value: number };
  topProducts: { product: string; quantity: number; revenue: number }[];
  /** True when the store has more deals or line items than one report reads (it reads the first ones). */
  partial: boolean;
}

export interface ConsoleReport {
  stores: ConsoleStoreReport[];
}

/** Messages received and objects applied over the last hour or day, in buckets (the overview's chart). */
export interface ConsoleActivity {
  window: 'hour' | 'day';
  bucketMs: number;
  buckets: { from: number; received: number; applied: number }[];
  /** True when there were more times than one read counts. */
  partial: boolean;
}
