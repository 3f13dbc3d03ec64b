import type { CrmPort } from '@ecomm-sync/crm-client';
import { statusOf, unique } from './crm-port-contract-helpers';

/**
 * A portal's deal pipelines, as the install step sets up and restores the ecommerce one: ids the CRM
 * gives, labels and stages changed through their own calls, labels unique, the portal's limit. Part
 * of the CrmPort contract (FakeCrm, and HttpCrmClient on the built-in CRM).
 */
export function describeCrmPipelines(crmOf: () => CrmPort): void {
  let crm: CrmPort;
  beforeEach(() => {
    crm = crmOf();
  });

  it('when a deal pipeline is created, then the CRM gives it and its stages ids; its label and stages change through their own calls; deleted, gone, then 404', async () => {
    const label = unique('Shop');
    const created = await crm.createDealPipeline({ label, displayOrder: 5, stages: [{ label: 'Open', displayOrder: 0, metadata: { probability: '0.5' } }] });
    expect(created).toMatchObject({ id: expect.any(String), label, displayOrder: 5, stages: [{ id: expect.any(String), label: 'Open', displayOrder: 0 }] });
    expect(created.stages[0].metadata).toMatchObject({ probability: '0.5' });
    expect((await crm.listDealPipelines()).find((listed) => listed.id === created.id)).toEqual(created);
    await crm.updateDealPipeline(created.id, { label: `${label} (web)` });
    const won = await crm.createDealStage(created.id, { label: 'Won', displayOrder: 1, metadata: { probability: '1.0', isClosed: 'true' } });
    await crm.updateDealStage(created.id, created.stages[0].id, { label: 'Opened' });
    const listed = (await crm.listDealPipelines()).find((pipeline) => pipeline.id === created.id)!;
    expect([listed.label, listed.stages.map((stage) => [stage.id, stage.label])]).toEqual([
      `${label} (web)`,
      [
        [created.stages[0].id, 'Opened'],
        [won.id, 'Won'],
      ],
    ]);
    await crm.archiveDealStage(created.id, won.id);
    expect((await crm.listDealPipelines()).find((pipeline) => pipeline.id === created.id)!.stages.map((stage) => stage.id)).toEqual([created.stages[0].id]);
    await crm.deleteDealPipeline(created.id);
    expect((await crm.listDealPipelines()).map((pipeline) => pipeline.id)).not.toContain(created.id);
    expect(await statusOf(crm.deleteDealPipeline(created.id))).toBe(404);
    expect(await statusOf(crm.updateDealStage(created.id, won.id, { label: 'x' }))).toBe(404);
  });

  it('when a pipeline is given the label another pipeline has, then it is refused with 409 and keeps its own', async () => {
    const stages = [{ label: 'Open', displayOrder: 0, metadata: { probability: '0.5' } }];
    const first = await crm.createDealPipeline({ label: unique('Taken'), displayOrder: 6, stages });
    const second = await crm.createDealPipeline({ label: unique('Other'), displayOrder: 7, stages });
    try {
      expect(await statusOf(crm.updateDealPipeline(second.id, { label: first.label }))).toBe(409);
      expect((await crm.listDealPipelines()).find((pipeline) => pipeline.id === second.id)!.label).toBe(second.label);
    } finally {
      await crm.deleteDealPipeline(first.id);
      await crm.deleteDealPipeline(second.id);
    }
  });

  it("when deal pipelines are created up to the portal's limit, then the next is refused with 400 naming the limit and nothing is made; one deleted, a create succeeds again", async () => {
    const stages = [{ label: 'Open', displayOrder: 0, metadata: { probability: '0.5' } }];
    const before = (await crm.listDealPipelines()).map((pipeline) => pipeline.id);
    const made: string[] = [];
    let refusal: unknown = null;
    // The limit is the portal's (the CRM's setting): create until it refuses, within a bound.
    for (let attempt = 0; attempt < 50 && !refusal; attempt++) {
      await crm.createDealPipeline({ label: unique('Limited'), displayOrder: attempt, stages }).then(
        (created) => made.push(created.id),
        (error: unknown) => (refusal = error),
      );
    }
    expect(refusal).toMatchObject({ status: 400, message: expect.stringMatching(/limit/i) });
    expect((await crm.listDealPipelines()).map((pipeline) => pipeline.id).sort()).toEqual([...before, ...made].sort());
    await crm.deleteDealPipeline(made[0]);
    expect(await statusOf(crm.createDealPipeline({ label: unique('Limited'), displayOrder: 0, stages }))).toBe('resolved');
  });

  it('when a deal pipeline is created with the label another has, then it is refused with 409 and nothing is made', async () => {
    const label = unique('Twice');
    const stages = [{ label: 'Open', displayOrder: 0, metadata: { probability: '0.5' } }];
    const first = await crm.createDealPipeline({ label, displayOrder: 0, stages });
    expect(await statusOf(crm.createDealPipeline({ label, displayOrder: 1, stages }))).toBe(409);
    expect((await crm.listDealPipelines()).filter((pipeline) => pipeline.label === label).map((pipeline) => pipeline.id)).toEqual([first.id]);
  });
}
