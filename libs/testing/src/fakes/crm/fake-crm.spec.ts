import { crmProperty, ECOMM_PROPERTY_GROUP } from '@ecomm-sync/domain';
import { describeCrmPortContract } from '../contracts/crm-port.contract';
import { FakeCrm } from './fake-crm';

describeCrmPortContract('FakeCrm', () => new FakeCrm());

// What FakeCrm offers its users beyond the contract: seeds and failures a real CRM cannot be told to have.
describe('FakeCrm, beyond the contract', () => {
  const stages = [{ label: 'Open', displayOrder: 0, metadata: { probability: '0.5' } }];

  it('when it is told to fail the nth property create, then that one fails and creates nothing, and the others succeed', async () => {
    const crm = new FakeCrm();
    await crm.createPropertyGroup('DEAL', ECOMM_PROPERTY_GROUP);
    crm.failPropertyCreate(2);
    await crm.createProperty('DEAL', crmProperty('first', 'First', 'string'));
    await expect(crm.createProperty('DEAL', crmProperty('second', 'Second', 'string'))).rejects.toMatchObject({ status: 500 });
    await crm.createProperty('DEAL', crmProperty('third', 'Third', 'string'));
    expect((await crm.listProperties('DEAL')).map((property) => property.name)).toEqual(['first', 'third']);
  });

  it('when seeded with pipelines and a limit, then the seeded ones count towards it and a new pipeline never takes a seeded id', async () => {
    const crm = new FakeCrm({ pipelines: [{ id: '1', label: 'Sales Pipeline', displayOrder: 0, stages: [] }], pipelineLimit: 2 });
    const created = await crm.createDealPipeline({ label: 'Ecommerce', displayOrder: 1, stages });
    expect(created.id).not.toBe('1');
    await expect(crm.createDealPipeline({ label: 'Third', displayOrder: 2, stages })).rejects.toMatchObject({ status: 400 });
    expect((await crm.listDealPipelines()).map((pipeline) => pipeline.label)).toEqual(['Sales Pipeline', 'Ecommerce']);
  });
});
