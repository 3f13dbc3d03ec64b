import { ECOMM_DEAL_STAGES, type EcommPipelineIds } from '@ecomm-sync/domain';
import type { CrmPipeline } from './crm-port';
import { DealStages } from './deal-stages';

const ecommerce: CrmPipeline = {
  id: '700',
  label: 'Ecommerce Pipeline',
  displayOrder: 99,
  stages: [
    { id: '701', label: 'Checkout Abandoned', displayOrder: 0, metadata: { probability: '0.0' } },
    { id: '702', label: 'Checkout Pending', displayOrder: 1, metadata: { probability: '0.2' } },
    { id: '703', label: 'Checkout Completed', displayOrder: 2, metadata: { probability: '1.0' } },
  ],
};

describe('DealStages', () => {
  let reads: number;
  let now: number;
  let pipelines: CrmPipeline[];
  const make = (kept: EcommPipelineIds | null = null) =>
    new DealStages(
      async () => {
        reads++;
        return pipelines;
      },
      kept,
      () => now,
    );

  beforeEach(() => {
    reads = 0;
    now = 0;
    pipelines = [ecommerce];
  });

  it("when a deal is written with SPEC's stage name, then it goes out with the CRM's stage id and the pipeline's id; read back, with the name", async () => {
    const stages = make();
    const [out] = await stages.toCrm([{ properties: { dealname: 'Order', dealstage: 'checkout_pending' } }]);
    expect(out.properties).toEqual({ dealname: 'Order', dealstage: '702', pipeline: '700' });
    expect(await stages.toSpec([{ id: 1, properties: { dealstage: '703' } }])).toEqual([{ id: 1, properties: { dealstage: 'checkout_completed' } }]);
  });

  it('when no input carries a stage, or a stage is not one of the pipeline, then nothing is read and the value passes as it is', async () => {
    const stages = make();
    const inputs = [{ properties: { dealname: 'Order' } }];
    expect(await stages.toCrm(inputs)).toBe(inputs);
    expect(reads).toBe(0);
    expect((await stages.toCrm([{ properties: { dealstage: 'somewhere_else' } }]))[0].properties).toEqual({ dealstage: 'somewhere_else' });
  });

  it('when the map is known, then it is read once, again after 10 minutes or after forget()', async () => {
    const stages = make();
    const deal = [{ properties: { dealstage: 'checkout_pending' } }];
    await stages.toCrm(deal);
    await stages.toCrm(deal);
    expect(reads).toBe(1);
    now += 10 * 60_000;
    await stages.toCrm(deal);
    expect(reads).toBe(2);
    stages.forget();
    await stages.toCrm(deal);
    expect(reads).toBe(3);
  });

  it('when the portal has no ecommerce pipeline yet, then names pass unchanged and the next deal looks again', async () => {
    pipelines = [];
    const stages = make();
    expect((await stages.toCrm([{ properties: { dealstage: 'checkout_pending' } }]))[0].properties.dealstage).toBe('checkout_pending');
    pipelines = [ecommerce];
    expect((await stages.toCrm([{ properties: { dealstage: 'checkout_pending' } }]))[0].properties.dealstage).toBe('702');
    expect(reads).toBe(2);
  });

  it('when the customer renamed the ecommerce pipeline, then the id the install stored still finds it', async () => {
    pipelines = [{ ...ecommerce, label: 'Web orders' }];
    expect((await make().toCrm([{ properties: { dealstage: 'checkout_pending' } }]))[0].properties.dealstage).toBe('checkout_pending');
    const keptId = make({ pipelineId: '700', stageIds: {} });
    expect((await keptId.toCrm([{ properties: { dealstage: 'checkout_pending' } }]))[0].properties).toEqual({ dealstage: '702', pipeline: '700' });
  });

  it('when the install kept every stage id for this connection, then deals are written and read with them and the pipelines are never read', async () => {
    const stageIds = Object.fromEntries(ECOMM_DEAL_STAGES.map((stage, index) => [stage.id, String(801 + index)]));
    const stages = make({ pipelineId: '800', stageIds });
    const [out] = await stages.toCrm([{ properties: { dealstage: 'checkout_pending' } }]);
    expect(out.properties).toEqual({ dealstage: stageIds.checkout_pending, pipeline: '800' });
    expect(await stages.toSpec([{ id: 1, properties: { dealstage: stageIds.shipped } }])).toEqual([{ id: 1, properties: { dealstage: 'shipped' } }]);
    now += 60 * 60_000;
    await stages.toCrm([{ properties: { dealstage: 'checkout_pending' } }]);
    expect(reads).toBe(0);
  });

  it('when the kept ids lack a stage, or the client changed the pipeline, then the pipelines are read instead', async () => {
    const partial = make({ pipelineId: '700', stageIds: { checkout_pending: '999' } });
    expect((await partial.toCrm([{ properties: { dealstage: 'checkout_pending' } }]))[0].properties.dealstage).toBe('702');
    expect(reads).toBe(1);
    const full = make({ pipelineId: '700', stageIds: Object.fromEntries(ECOMM_DEAL_STAGES.map((stage) => [stage.id, `x-${stage.id}`])) });
    full.forget();
    expect((await full.toCrm([{ properties: { dealstage: 'checkout_pending' } }]))[0].properties.dealstage).toBe('702');
    expect(reads).toBe(2);
  });
});
