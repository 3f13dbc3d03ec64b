import { ABANDONED_STAGE, ECOMM_DEAL_STAGES } from './ecommerce-setup';

/** A CRM object as the report reads it: its properties as the CRM holds them (strings or null). */
export interface ReportObject {
  properties: Record<string, string | null | undefined>;
}

export interface StageRevenue {
  stage: string;
  label: string;
  deals: number;
  revenue: number;
}

export interface ProductRevenue {
  product: string;
  quantity: number;
  revenue: number;
}

export interface StoreReport {
  revenueByStage: StageRevenue[];
  abandonedCheckouts: { count: number; value: number };
  topProducts: ProductRevenue[];
}

/** A CRM number: blank, missing or not a finite number counts as 0 (the CRM stores what was sent). */
const number = (value: string | null | undefined): number => {
  if (value === null || value === undefined || value.trim() === '') return 0;
  const parsed = Number(value);
  return Number.isFinite(parsed) ? parsed : 0;
};

/** Sums kept in cents, so that 0.1 + 0.2 reads 0.3. */
const cents = (amount: number) => Math.round(amount * 100);

/**
 * The reporting dashboard of one store from its CRM deals and line items: revenue (deal amount)
 * per deal stage, in the pipeline's order then other stages by name; abandoned checkouts (deals
 * in checkout_abandoned) with their value; the top products by line-item revenue (`amount`, else
 * `price` × `quantity`, quantity 1 when missing), grouped by the line item's `name`.
 */
export function storeReport(deals: readonly ReportObject[], lineItems: readonly ReportObject[], top = 5): StoreReport {
  const stages = new Map<string, { deals: number; cents: number }>();
  for (const deal of deals) {
    const stage = deal.properties.dealstage || '(no stage)';
    const entry = stages.get(stage) ?? { deals: 0, cents: 0 };
    entry.deals += 1;
    entry.cents += cents(number(deal.properties.amount));
    stages.set(stage, entry);
  }
  const order = new Map<string, { label: string; displayOrder: number }>(ECOMM_DEAL_STAGES.map((stage) => [stage.id, stage]));
  const revenueByStage = [...stages.entries()]
    .map(([stage, entry]) => ({ stage, label: order.get(stage)?.label ?? stage, deals: entry.deals, revenue: entry.cents / 100 }))
    .sort((a, b) => (order.get(a.stage)?.displayOrder ?? Infinity) - (order.get(b.stage)?.displayOrder ?? Infinity) || a.stage.localeCompare(b.stage));
  const abandoned = stages.get(ABANDONED_STAGE);

  const products = new Map<string, { quantity: number; cents: number }>();
  for (const item of lineItems) {
    const product = item.properties.name?.trim() || '(unnamed)';
    const quantity =
      item.properties.quantity === undefined || item.properties.quantity === null || item.properties.quantity.trim() === ''
        ? 1
        : number(item.properties.quantity);
    const amount =
      item.properties.amount !== undefined && item.properties.amount !== null && item.properties.amount.trim() !== ''
        ? number(item.properties.amount)
        : number(item.properties.price) * quantity;
    const entry = products.get(product) ?? { quantity: 0, cents: 0 };
    entry.quantity += quantity;
    entry.cents += cents(amount);
    products.set(product, entry);
  }
  const topProducts = [...products.entries()]
    .map(([product, entry]) => ({ product, quantity: entry.quantity, revenue: entry.cents / 100 }))
    .sort((a, b) => b.revenue - a.revenue || a.product.localeCompare(b.product))
    .slice(0, top);

  return { revenueByStage, abandonedCheckouts: { count: abandoned?.deals ?? 0, value: (abandoned?.cents ?? 0) / 100 }, topProducts };
}
