import type { ObjectType } from '@ecomm-sync/contracts';
import { CrmRequestError, type CrmPipeline, type CrmPort, type CrmPropertyInfo } from '@ecomm-sync/crm-client';
import { ECOMM_DEAL_STAGES, ECOMM_PROPERTIES, crmProperty } from '@ecomm-sync/domain';
import { EcommerceInstallError, installEcommerce } from './install-ecommerce';

/** An in-memory CRM with a pipeline limit, that can be told to fail the n-th property create. */
class FakeCrm {
  pipelines: CrmPipeline[] = [{ id: 'default', label: 'Sales Pipeline', displayOrder: 0, stages: [] }];
  properties = new Map<ObjectType, CrmPropertyInfo[]>([
    ['CONTACT', [crmProperty('email', 'Email', 'string', { groupName: 'contactinformation' })]],
    ['DEAL', []],
    ['PRODUCT', []],
    ['LINE_ITEM', []],
  ]);
  creates = 0;
  groups = new Map<ObjectType, Set<string>>();

  constructor(
    private readonly pipelineLimit = 10,
    private readonly failPropertyCreate = 0,
  ) {}

  port(): CrmPort {
    return {
      listDealPipelines: async () => this.pipelines.map((pipeline) => ({ ...pipeline })),
      createDealPipeline: async (pipeline: CrmPipeline) => {
        if (this.pipelines.length >= this.pipelineLimit)
          throw new CrmRequestError(`The portal has reached its limit of ${this.pipelineLimit} deal pipelines`, 400);
        this.pipelines.push(pipeline);
        return pipeline;
      },
      updateDealPipeline: async (pipeline: CrmPipeline) => {
        this.pipelines = this.pipelines.map((existing) => (existing.id === pipeline.id ? pipeline : existing));
        return pipeline;
      },
      deleteDealPipeline: async (id: string) => {
        this.pipelines = this.pipelines.filter((pipeline) => pipeline.id !== id);
      },
      listProperties: async (type: ObjectType) => [...this.properties.get(type)!],
      createProperty: async (type: ObjectType, property: CrmPropertyInfo) => {
        if (++this.creates === this.failPropertyCreate) throw new CrmRequestError('CRM POST /crm/v3/properties failed (500): boom', 500);
        this.properties.get(type)!.push(property);
      },
      listPropertyGroups: async (type: ObjectType) => [...(this.groups.get(type) ?? [])].map((name) => ({ name, label: name })),
      createPropertyGroup: async (type: ObjectType, group: { name: string }) => {
        this.groups.set(type, new Set([...(this.groups.get(type) ?? []), group.name]));
      },
      deleteProperty: async (type: ObjectType, name: string) => {
        this.properties.set(
          type,
          this.properties.get(type)!.filter((property) => property.name !== name),
        );
      },
    } as unknown as CrmPort;
  }

  propertyNames(): string[] {
    return [...this.properties.values()]
      .flat()
      .map((property) => property.name)
      .sort();
  }
}

const allEcommerceProperties = Object.values(ECOMM_PROPERTIES).flat().length;

/** A CRM that already has a property the service needs, as someone else made it. */
function withProperty(type: ObjectType, property: CrmPropertyInfo): FakeCrm {
  const crm = new FakeCrm();
  crm.properties.get(type)!.push(property);
  return crm;
}

describe('installEcommerce', () => {
  it('creates the pipeline with its six stages and every ecommerce property, once however often it runs', async () => {
    const crm = new FakeCrm();
    await installEcommerce(crm.port());
    await installEcommerce(crm.port());
    expect(crm.pipelines.filter((pipeline) => pipeline.id === 'ecommerce')).toHaveLength(1);
    expect(crm.pipelines.find((pipeline) => pipeline.id === 'ecommerce')!.stages.map((stage) => stage.id)).toEqual(ECOMM_DEAL_STAGES.map((stage) => stage.id));
    expect(crm.propertyNames()).toHaveLength(1 + allEcommerceProperties);
  });

  it('resets a modified ecommerce pipeline to its default label and stages', async () => {
    const crm = new FakeCrm();
    await installEcommerce(crm.port());
    crm.pipelines = crm.pipelines.map((pipeline) =>
      pipeline.id === 'ecommerce' ? { ...pipeline, label: 'My renamed pipeline', stages: pipeline.stages.slice(0, 2) } : pipeline,
    );
    await installEcommerce(crm.port());
    const ours = crm.pipelines.find((pipeline) => pipeline.id === 'ecommerce')!;
    expect(ours.label).toBe('Ecommerce Pipeline');
    expect(ours.stages).toHaveLength(6);
  });

  it.each([
    ['at its pipeline limit', () => new FakeCrm(1), 'pipeline-limit', /maximum number of deal pipelines/],
    [
      'with a foreign pipeline named ecommerce',
      () => Object.assign(new FakeCrm(), { pipelines: [{ id: 'p9', label: 'eCommerce orders', displayOrder: 1, stages: [] }] }),
      'foreign-pipeline',
      /"eCommerce orders"/,
    ],
    [
      'whose sync key property was planted without unique values',
      () => withProperty('CONTACT', crmProperty('ip__ecomm_bridge__sync_key', 'planted', 'string')),
      'conflicting-property',
      /CONTACT "ip__ecomm_bridge__sync_key" is string, the service needs string with unique values.*Delete them/,
    ],
    [
      'whose synced flag was planted with unique values (every object after the first would be refused)',
      () => withProperty('CONTACT', crmProperty('ip__ecomm_bridge__ecomm_synced', 'planted', 'bool', { hasUniqueValue: true })),
      'conflicting-property',
      /CONTACT "ip__ecomm_bridge__ecomm_synced" is bool with unique values, the service needs bool[;.]/,
    ],
    [
      'with an ecommerce property of another type',
      () => withProperty('DEAL', crmProperty('ip__ecomm_bridge__order_number', 'order', 'number')),
      'conflicting-property',
      /DEAL "ip__ecomm_bridge__order_number" is number, the service needs string/,
    ],
  ])('refuses a portal %s and changes nothing', async (_name, make, reason, message) => {
    const crm = make();
    const before = JSON.stringify({ pipelines: crm.pipelines, properties: crm.propertyNames() });
    const error = await installEcommerce(crm.port()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(EcommerceInstallError);
    expect(error).toMatchObject({ reason, message: expect.stringMatching(message) });
    expect(JSON.stringify({ pipelines: crm.pipelines, properties: crm.propertyNames() })).toBe(before);
  });

  it.each([1, 3, allEcommerceProperties])('undoes everything it made when property create %i fails', async (failing) => {
    const crm = new FakeCrm(10, failing);
    const error = await installEcommerce(crm.port()).catch((e: unknown) => e);
    expect(error).toMatchObject({ reason: 'crm-failure', message: expect.stringMatching(/was undone/) });
    expect(crm.pipelines.map((pipeline) => pipeline.id)).toEqual(['default']);
    expect(crm.propertyNames()).toEqual(['email']);
  });
});
