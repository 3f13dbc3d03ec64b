import { ECOMM_DEAL_STAGES } from './ecommerce-setup';
import { ecommPipelineIdsOf, findForeignEcommPipeline, planPipelineRestore, stageMapOf, stageMapOfIds, type PipelineView } from './pipeline-stages';

const defaultStages = (): PipelineView['stages'][number][] =>
  ECOMM_DEAL_STAGES.map((stage, i) => ({ id: `${100 + i}`, label: stage.label, displayOrder: stage.displayOrder, metadata: { ...stage.metadata } }));
const ours = (stages: PipelineView['stages'] = defaultStages()): PipelineView => ({ id: '555', label: 'Ecommerce Pipeline', stages });

describe('the ecommerce pipeline and its stage ids', () => {
  it('when the portal has our pipeline, then each SPEC stage maps to the CRM stage of its label, both ways', () => {
    const map = stageMapOf([{ id: 'default', label: 'Sales Pipeline', stages: [] }, ours()])!;
    expect(map.pipelineId).toBe('555');
    expect(map.toCrm.get('checkout_completed')).toBe('102');
    expect(map.toSpec.get('105')).toBe('cancelled');
  });

  it('when the portal has no pipeline of our label, then there is no map', () => {
    expect(stageMapOf([{ id: 'default', label: 'Sales Pipeline', stages: [] }])).toBeNull();
  });

  it.each([
    ['another pipeline named ecommerce', 'eCommerce orders', true],
    ['ours in other case', 'ECOMMERCE PIPELINE', false],
    ['an unrelated pipeline', 'Sales Pipeline', false],
  ])('when the portal has %s (%s), then it is foreign: %s', (_what, label, foreign) => {
    expect(!!findForeignEcommPipeline([{ id: '1', label, stages: [] }])).toBe(foreign);
  });

  it('when the pipeline is as SPEC says, then restoring it changes nothing', () => {
    expect(planPipelineRestore(ours())).toEqual({ relabel: false, update: [], create: [], archive: [] });
  });

  it.each([
    ['names isClosed "false" of the open stages', (metadata: Record<string, string>) => ({ isClosed: 'false', ...metadata })],
    ['writes probabilities without their decimals', (metadata: Record<string, string>) => ({ ...metadata, probability: String(Number(metadata.probability)) })],
  ])('when the CRM %s, then restoring the pipeline changes nothing', (_what, answered) => {
    const stages = defaultStages().map((stage) => ({ ...stage, metadata: answered(stage.metadata ?? {}) }));
    expect(planPipelineRestore(ours(stages))).toEqual({ relabel: false, update: [], create: [], archive: [] });
  });

  it.each([
    ['closes an open stage', { probability: '0.2', isClosed: 'true' }],
    ['changes its probability', { probability: '0.5' }],
    ['adds a key of its own', { probability: '0.2', color: 'red' }],
  ])('when the CRM %s, then the restore updates the stage', (_what, metadata) => {
    const stages = defaultStages().map((stage) => (stage.label === 'Checkout Pending' ? { ...stage, metadata } : stage));
    expect(planPipelineRestore(ours(stages)).update).toEqual([
      expect.objectContaining({ stageId: '101', metadata: { probability: '0.2', isClosed: 'false' } }),
    ]);
  });

  it('when a stage was renamed, one removed and one added, then the restore renames, creates and archives, keeping the ids it can', () => {
    const stages = ours().stages.map((stage) => ({ ...stage }));
    stages[1] = { ...stages[1], label: 'Waiting for payment' }; // renamed: kept by its place
    stages.splice(5, 1); // cancelled removed
    stages.push({ id: '999', label: 'Gift wrapping', displayOrder: 9, metadata: { probability: '0.5' } }); // added
    const plan = planPipelineRestore({ ...ours(stages), label: 'Shop orders' });
    expect(plan.relabel).toBe(true);
    expect(plan.update.map((u) => [u.stageId, u.label])).toEqual([
      ['101', 'Checkout Pending'],
      ['999', 'Cancelled'],
    ]);
    expect(plan.create).toEqual([]);
    expect(plan.archive).toEqual([]);
  });

  it('when stages are missing and none is left to reuse, then they are created; a surplus stage is archived', () => {
    const plan = planPipelineRestore(ours(ours().stages.slice(0, 4)));
    expect(plan.create.map((c) => c.label)).toEqual(['Shipped', 'Cancelled']);
    const surplus = planPipelineRestore(ours([...ours().stages, { id: '7', label: 'Extra', displayOrder: 7, metadata: { probability: '0.1' } }]));
    expect(surplus.archive).toEqual(['7']);
  });

  it('when an install keeps the ids of our pipeline, then each SPEC stage names its CRM stage, and the map made of them is the one read from the pipeline', () => {
    const ids = ecommPipelineIdsOf(ours());
    expect(ids.pipelineId).toBe('555');
    expect(Object.keys(ids.stageIds).sort()).toEqual(ECOMM_DEAL_STAGES.map((stage) => stage.id).sort());
    expect(stageMapOfIds(ids)).toEqual(stageMapOf([ours()]));
  });

  it.each([
    ['every stage', () => ecommPipelineIdsOf(ours()), true],
    ['a stage missing (a pipeline without it)', () => ecommPipelineIdsOf(ours(ours().stages.slice(0, 5))), false],
    ['no stage (an install of before stage ids were kept)', () => ({ pipelineId: '555', stageIds: {} }), false],
  ])('when the kept ids hold %s, then a map is made of them: %s', (_what, ids, made) => {
    expect(stageMapOfIds(ids()) !== null).toBe(made);
  });
});
