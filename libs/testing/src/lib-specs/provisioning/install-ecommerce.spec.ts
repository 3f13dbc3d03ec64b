import { OBJECT_TYPES, type ObjectType } from '@ecomm-sync/contracts';
import type { CrmPipeline, CrmPropertyInfo } from '@ecomm-sync/crm-client';
import { ECOMM_DEAL_STAGES, ECOMM_PIPELINE_LABEL, ECOMM_PROPERTIES, crmProperty } from '@ecomm-sync/domain';
import { SecretBox, sealedFor } from '@ecomm-sync/data-access';
import { FakeCrm, FakePortalRepository } from '../../fakes';
import { EcommerceInstallError, installEcommerce, installEcommerceFor } from '@ecomm-sync/provisioning';

const SALES_PIPELINE: CrmPipeline = { id: 'default', label: 'Sales Pipeline', displayOrder: 0, stages: [] };
const EMAIL = crmProperty('email', 'Email', 'string', { groupName: 'contactinformation' });

/**
 * The shared FakeCrm (held to the CrmPort contract the HTTP client passes against the built-in CRM),
 * as a new portal's CRM: its sales pipeline and the contact's e-mail, unless seeded otherwise.
 */
const aCrm = (seed: ConstructorParameters<typeof FakeCrm>[0] = {}) =>
  new FakeCrm({ pipelines: [SALES_PIPELINE], ...seed, properties: { CONTACT: [EMAIL], ...seed.properties } });

/** A CRM that already has a property the service needs, as someone else made it. */
const withProperty = (type: ObjectType, property: CrmPropertyInfo) => aCrm({ properties: { [type]: [...(type === 'CONTACT' ? [EMAIL] : []), property] } });

/** What the CRM answers, read through the port as the install reads it. */
const pipelineIn = async (crm: FakeCrm, id: string) => (await crm.listDealPipelines()).find((pipeline) => pipeline.id === id)!;
const ours = async (crm: FakeCrm) => (await crm.listDealPipelines()).filter((pipeline) => pipeline.label === ECOMM_PIPELINE_LABEL);
const propertyNames = async (crm: FakeCrm) =>
  (await Promise.all(OBJECT_TYPES.map((type) => crm.listProperties(type))))
    .flat()
    .map((p) => p.name)
    .sort();
const snapshot = async (crm: FakeCrm) => JSON.stringify({ pipelines: await crm.listDealPipelines(), properties: await propertyNames(crm) });

const allEcommerceProperties = Object.values(ECOMM_PROPERTIES).flat().length;

/** SPEC name → stage id, as the CRM holds the pipeline. */
const stageIdsIn = (pipeline: CrmPipeline) =>
  Object.fromEntries(pipeline.stages.map((stage) => [ECOMM_DEAL_STAGES.find((one) => one.label === stage.label)!.id, stage.id]));

describe('installEcommerce', () => {
  it('when a portal is installed again and again, then it has the pipeline with its six stages and every ecommerce property once', async () => {
    const crm = aCrm();
    const first = await installEcommerce(crm);
    const { pipelineId } = first;
    expect(first.stageIds).toEqual(stageIdsIn(await pipelineIn(crm, pipelineId)));
    expect(await installEcommerce(crm)).toEqual(first);
    expect((await ours(crm)).map((pipeline) => pipeline.id)).toEqual([pipelineId]);
    expect((await pipelineIn(crm, pipelineId)).stages.map((stage) => [stage.label, stage.metadata])).toEqual(
      ECOMM_DEAL_STAGES.map((stage) => [stage.label, stage.metadata]),
    );
    expect(await propertyNames(crm)).toHaveLength(1 + allEcommerceProperties);
  });

  it('when the ecommerce pipeline was renamed and lost stages, then the install restores its label and stages, and the kept stages keep their ids', async () => {
    const crm = aCrm();
    const { pipelineId } = await installEcommerce(crm);
    // A user renames it and removes all but its first two stages, in the CRM.
    const [first, second, ...removed] = (await pipelineIn(crm, pipelineId)).stages;
    await crm.updateDealPipeline(pipelineId, { label: 'My renamed pipeline' });
    for (const stage of removed) await crm.archiveDealStage(pipelineId, stage.id);
    const restored = await installEcommerce(crm, pipelineId);
    const ourPipeline = await pipelineIn(crm, pipelineId);
    // The ids it answers (for the portal to keep) are the restored pipeline's, without reading it again.
    expect(restored).toEqual({ pipelineId, stageIds: stageIdsIn(ourPipeline) });
    expect(ourPipeline.label).toBe('Ecommerce Pipeline');
    expect(ourPipeline.stages.map((stage) => stage.label)).toEqual(ECOMM_DEAL_STAGES.map((stage) => stage.label));
    // The stages that were there keep their ids (deals in them stay where they are).
    expect(ourPipeline.stages.slice(0, 2).map((stage) => stage.id)).toEqual([first.id, second.id]);
  });

  it('when the service’s pipeline was renamed and another pipeline took its label, then the install is refused as a foreign pipeline and changes nothing', async () => {
    const crm = aCrm();
    const { pipelineId } = await installEcommerce(crm);
    await crm.updateDealPipeline(pipelineId, { label: 'Shop orders' });
    const other = await crm.createDealPipeline({ label: ECOMM_PIPELINE_LABEL, displayOrder: 5, stages: [] });
    const before = await snapshot(crm);

    const error = await installEcommerce(crm, pipelineId).catch((e: unknown) => e);

    expect(error).toBeInstanceOf(EcommerceInstallError);
    expect(error).toMatchObject({ reason: 'foreign-pipeline', message: expect.stringContaining(`"${ECOMM_PIPELINE_LABEL}" (id ${other.id})`) });
    expect(await snapshot(crm)).toBe(before);
  });

  it.each([
    ['at its pipeline limit', () => aCrm({ pipelineLimit: 1 }), 'pipeline-limit', /maximum number of deal pipelines/],
    [
      'with a foreign pipeline named ecommerce',
      () => aCrm({ pipelines: [{ id: 'p9', label: 'eCommerce orders', displayOrder: 1, stages: [] }] }),
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
  ])('when the install meets a portal %s, then it is refused and changes nothing', async (_name, make, reason, message) => {
    const crm = make();
    const before = await snapshot(crm);
    const error = await installEcommerce(crm).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(EcommerceInstallError);
    expect(error).toMatchObject({ reason, message: expect.stringMatching(message) });
    expect(await snapshot(crm)).toBe(before);
  });

  it.each([1, 3, allEcommerceProperties])('when property create %i fails, then everything the install made is undone', async (failing) => {
    const crm = aCrm();
    crm.failPropertyCreate(failing);
    const error = await installEcommerce(crm).catch((e: unknown) => e);
    expect(error).toMatchObject({ reason: 'crm-failure', message: expect.stringMatching(/was undone/) });
    expect((await crm.listDealPipelines()).map((pipeline) => pipeline.id)).toEqual(['default']);
    expect(await propertyNames(crm)).toEqual(['email']);
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
    const crm = aCrm();
    const ids = await installEcommerceFor(portals, crm, (await portals.findById(portalId))!);
    expect((await portals.findById(portalId))!.ecommPipeline).toEqual({ ...ids, forConnection: 0 });
    const writes = jest.spyOn(portals, 'setEcommPipeline');
    await installEcommerceFor(portals, crm, (await portals.findById(portalId))!);
    expect(writes).not.toHaveBeenCalled();
  });

  it("when the connection changed since the last install, then the old CRM's pipeline id is not used and the new CRM's ids are kept for the new connection", async () => {
    const portals = new FakePortalRepository();
    const portalId = await aPortal(portals);
    const old = await installEcommerceFor(portals, aCrm(), (await portals.findById(portalId))!);
    await portals.setCrmConnection(portalId, { kind: 'builtin', limits: null, changedAt: 5_000 });
    // The old CRM's pipeline id names another pipeline here.
    const other = aCrm({ pipelines: [SALES_PIPELINE, { id: old.pipelineId, label: 'Not ours', displayOrder: 1, stages: [] }] });
    const ids = await installEcommerceFor(portals, other, (await portals.findById(portalId))!);
    expect((await pipelineIn(other, ids.pipelineId)).label).toBe('Ecommerce Pipeline');
    expect((await pipelineIn(other, old.pipelineId)).label).toBe('Not ours');
    expect((await portals.findById(portalId))!.ecommPipeline).toEqual({ ...ids, forConnection: 5_000 });
  });
});
