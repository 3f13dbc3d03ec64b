import { storeReport, type ReportObject, type StoreReport } from './store-report';

const deal = (dealstage: string | null, amount: string | null): ReportObject => ({ properties: { dealstage, amount } });
const item = (properties: Record<string, string | null>): ReportObject => ({ properties });

describe('storeReport', () => {
  it.each<[string, ReportObject[], Partial<StoreReport>]>([
    ['no deals', [], { revenueByStage: [], abandonedCheckouts: { count: 0, value: 0 } }],
    [
      'deals in several stages, out of the pipeline order',
      [
        deal('shipped', '10'),
        deal('checkout_abandoned', '5.5'),
        deal('checkout_completed', '0.1'),
        deal('checkout_completed', '0.2'),
        deal('checkout_abandoned', '4.5'),
      ],
      {
        revenueByStage: [
          { stage: 'checkout_abandoned', label: 'Checkout Abandoned', deals: 2, revenue: 10 },
          { stage: 'checkout_completed', label: 'Checkout Completed', deals: 2, revenue: 0.3 },
          { stage: 'shipped', label: 'Shipped', deals: 1, revenue: 10 },
        ],
        abandonedCheckouts: { count: 2, value: 10 },
      },
    ],
    [
      'deals without amount, with a bad amount, in a stage of another pipeline and without stage',
      [deal('checkout_pending', null), deal('checkout_pending', 'lots'), deal('custom', '3'), deal(null, '2')],
      {
        revenueByStage: [
          { stage: 'checkout_pending', label: 'Checkout Pending', deals: 2, revenue: 0 },
          { stage: '(no stage)', label: '(no stage)', deals: 1, revenue: 2 },
          { stage: 'custom', label: 'custom', deals: 1, revenue: 3 },
        ],
      },
    ],
  ])('when the deals are %s, then the stages and abandoned checkouts are as expected', (_name, deals, expected) => {
    expect(storeReport(deals, [])).toMatchObject(expected);
  });

  it.each<[string, ReportObject[], StoreReport['topProducts']]>([
    ['no line items', [], []],
    [
      'line items with amount, or price and quantity, grouped by name',
      [
        item({ name: 'Mug', price: '9', quantity: '2' }),
        item({ name: 'Tea', amount: '4', price: '1', quantity: '9' }),
        item({ name: 'Mug', price: '9', quantity: '1' }),
      ],
      [
        { product: 'Mug', quantity: 3, revenue: 27 },
        { product: 'Tea', quantity: 9, revenue: 4 },
      ],
    ],
    [
      'a line item without quantity counts one, without name is unnamed',
      [item({ price: '2.5' }), item({ name: ' ', price: '1', quantity: '' })],
      [{ product: '(unnamed)', quantity: 2, revenue: 3.5 }],
    ],
    [
      'equal revenue, ordered by name, and only the top ones',
      ['F', 'E', 'D', 'C', 'B', 'A'].map((name) => item({ name, amount: '1' })),
      ['A', 'B', 'C', 'D', 'E'].map((product) => ({ product, quantity: 1, revenue: 1 })),
    ],
  ])('when the line items are %s, then the top products are as expected', (_name, lineItems, expected) => {
    expect(storeReport([], lineItems).topProducts).toEqual(expected);
  });
});
