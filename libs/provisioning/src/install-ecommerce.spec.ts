import type { ObjectType } from '@ecomm-sync/contracts';
import { CrmRequestError, type CrmPipeline, type CrmPort, type CrmPropertyInfo, type NewCrmPipeline, type NewCrmPipelineStage } from '@ecomm-sync/crm-client';
import { ECOMM_DEAL_STAGES, ECOMM_PROPERTIES, crmProperty } from '@ecomm-sync/domain';
import { SecretBox, sealedFor } from '@ecomm-sync/data-access';
import { FakePortalRepository } from '@ecomm-sync/testing-fakes';
import { EcommerceInstallError, installEcommerce, installEcommerceFor } from './install-ecommerce';

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
  ids = 0;
  groups = new Map<ObjectType, Set<string>>();

  constructor(
    private readonly pipelineLimit = 10,
    private readonly failPropertyCreate = 0,
  ) {}

  port(): CrmPort {
    return {
      listDealPipelines: async () => this.pipelines.map((pipeline) => ({ ...pipeline })),
      // As the CRM: it makes the ids.
      createDealPipeline: async (pipeline: NewCrmPipeline) => {
        if (this.pipelines.length >= this.pipelineLimit)
          throw new CrmRequestError(`The portal has reached its limit of ${this.pipelineLimit} deal pipelines`, 400);
        const created = { ...pipeline, id: `p${++this.ids}`, stages: pipeline.stages.map((stage) => ({ ...stage, id: `s${++this.ids}` })) };
        this.pipelines.push(created);
        return created;
      },
      updateDealPipeline: async (id: string, changes: { label?: string }) => {
        this.pipelines = this.pipelines.map((existing) => (existing.id === id ? { ...existing, ...changes } : existing));
      },
      createDealStage: async (pipelineId: string, stage: NewCrmPipelineStage) => {
        const created = { ...stage, id: `s${++this.ids}` };
        this.pipeline(pipelineId).stages.push(created);
        return created;
      },
      updateDealStage: async (pipelineId: string, stageId: string, changes: Partial<NewCrmPipelineStage>) => {
        Object.assign(
          this.pipeline(pipelineId).stages.find((stage) => stage.id === stageId)!,
          changes,
        );
      },
      archiveDealStage: async (pipelineId: string, stageId: string) => {
        const pipeline = this.pipeline(pipelineId);
        pipeline.stages = pipeline.stages.filter((stage) => stage.id !== stageId);
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

  pipeline(id: string): CrmPipeline {
    return this.pipelines.find((pipeline) => pipeline.id === id)!;
  }

  ours(): CrmPipeline[] {
    return this.pipelines.filter((pipeline) => pipeline.label === 'Ecommerce Pipeline');
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

/** SPEC name → stage id, as the CRM holds the pipeline. */
const stageIdsIn = (pipeline: CrmPipeline) =>
  Object.fromEntries(pipeline.stages.map((stage) => [ECOMM_DEAL_STAGES.find((one) => one.label === stage.label)!.id, stage.id]));

describe('installEcommerce', () => {
  it('creates the pipeline with its six stages and every ecommerce property, once however often it runs', async () => {
    const crm = new FakeCrm();
    const first = await installEcommerce(crm.port());
    const { pipelineId } = first;
    expect(first.stageIds).toEqual(stageIdsIn(crm.pipeline(pipelineId)));
    expect(await installEcommerce(crm.port())).toEqual(first);
    expect(crm.ours().map((pipeline) => pipeline.id)).toEqual([pipelineId]);
    expect(crm.pipeline(pipelineId).stages.map((stage) => [stage.label, stage.metadata])).toEqual(
      ECOMM_DEAL_STAGES.map((stage) => [stage.label, stage.metadata]),
    );
    expect(crm.propertyNames()).toHaveLength(1 + allEcommerceProperties);
  });

  it('resets a modified ecommerce pipeline to its default label and stages', async () => {
    const crm = new FakeCrm();
    const { pipelineId } = await installEcommerce(crm.port());
    const kept = crm.pipeline(pipelineId).stages.slice(0, 2);
    crm.pipelines = crm.pipelines.map((pipeline) =>
      pipeline.id === pipelineId ? { ...pipeline, label: 'My renamed pipeline', stages: kept.map((s) => ({ ...s })) } : pipeline,
    );
    const restored = await installEcommerce(crm.port(), pipelineId);
    const ours = crm.pipeline(pipelineId);
    // The ids it answers (for the portal to keep) are the restored pipeline's, without reading it again.
    expect(restored).toEqual({ pipelineId, stageIds: stageIdsIn(ours) });
    expect(ours.label).toBe('Ecommerce Pipeline');
    expect(ours.stages.map((stage) => stage.label)).toEqual(ECOMM_DEAL_STAGES.map((stage) => stage.label));
    // The stages that were there keep their ids (deals in them stay where they are).
    expect(ours.stages.slice(0, 2).map((stage) => stage.id)).toEqual(kept.map((stage) => stage.id));
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

describe('installEcommerceFor', () => {
  const aPortal = async (portals: FakePortalRepository) => {
    const portalId = await portals.nextPortalId();
    await portals.create({ portalId, name: 'Shop', crmTokenSealed: new SecretBox('k'.repeat(32)).seal('t', sealedFor.builtinCrmToken(portalId)) });
    return portalId;
  };

  it('when a portal installs, then the ids are kept for its connection; installed again unchanged, nothing is written', async () => {
    const portals = new FakePortalRepository();
    const portalId = await aPortal(portals);
    const crm = new FakeCrm();
    const ids = await installEcommerceFor(portals, crm.port(), (await portals.findById(portalId))!);
    expect((await portals.findById(portalId))!.ecommPipeline).toEqual({ ...ids, forConnection: 0 });
    const writes = jest.spyOn(portals, 'setEcommPipeline');
    await installEcommerceFor(portals, crm.port(), (await portals.findById(portalId))!);
    expect(writes).not.toHaveBeenCalled();
  });

  it("when the connection changed since the last install, then the old CRM's pipeline id is not used and the new CRM's ids are kept for the new connection", async () => {
    const portals = new FakePortalRepository();
    const portalId = await aPortal(portals);
    await installEcommerceFor(portals, new FakeCrm().port(), (await portals.findById(portalId))!);
    await portals.setCrmConnection(portalId, { kind: 'builtin', limits: null, changedAt: 5_000 });
    const other = new FakeCrm();
    other.ids = 100;
    other.pipelines = [...other.pipelines, { id: 'p1', label: 'Not ours', displayOrder: 1, stages: [] }]; // the old CRM's id names another pipeline here
    const ids = await installEcommerceFor(portals, other.port(), (await portals.findById(portalId))!);
    expect(other.pipeline(ids.pipelineId).label).toBe('Ecommerce Pipeline');
    expect(other.pipeline('p1').label).toBe('Not ours');
    expect((await portals.findById(portalId))!.ecommPipeline).toEqual({ ...ids, forConnection: 5_000 });
  });
});
