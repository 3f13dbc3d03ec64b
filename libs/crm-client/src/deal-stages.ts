import { stageMapOf, stageMapOfIds, type EcommPipelineIds, type StageMap } from '@ecomm-sync/domain';
import type { CrmObject, CrmPipeline } from './crm-port';

type Properties = Record<string, string | null>;

/** How long a portal's stage map is trusted before the pipelines are read again (a reinstall makes new ids). */
const STAGE_MAP_TTL_MS = 10 * 60_000;

/**
 * SPEC's stage names at the port, the CRM's stage ids on the wire (DESIGN, "The real hosted CRM is
 * the target"): a deal written with `dealstage: checkout_pending` goes out with the CRM's id of that
 * stage and the ecommerce pipeline's id in `pipeline`; a deal read comes back with the name. The map
 * is the one the install kept for this connection; failing that (an install of before stage ids
 * were kept, a pipeline missing a stage) it is read from the portal's pipelines when a deal first
 * needs it (one request), and kept a while.
 */
export class DealStages {
  private map: { value: Promise<StageMap | null>; until: number } | undefined;
  private kept: StageMap | null;
  private readonly pipelineId: string | null;

  constructor(
    private readonly readPipelines: () => Promise<CrmPipeline[]>,
    /** The ids the install kept for this connection, when known. */
    kept: EcommPipelineIds | null = null,
    private readonly now: () => number = Date.now,
  ) {
    this.kept = kept ? stageMapOfIds(kept) : null;
    this.pipelineId = kept?.pipelineId ?? null;
  }

  /** The pipeline changed (an install through this client): read it next time, the kept ids may be stale. */
  forget(): void {
    this.map = undefined;
    this.kept = null;
  }

  async toCrm<I extends { properties: Properties }>(inputs: I[]): Promise<I[]> {
    if (!inputs.some((input) => typeof input.properties.dealstage === 'string')) return inputs;
    const map = await this.current();
    if (!map) return inputs;
    return inputs.map((input) => {
      const id = typeof input.properties.dealstage === 'string' ? map.toCrm.get(input.properties.dealstage) : undefined;
      return id === undefined ? input : { ...input, properties: { ...input.properties, dealstage: id, pipeline: map.pipelineId } };
    });
  }

  async toSpec(objects: CrmObject[]): Promise<CrmObject[]> {
    if (!objects.some((object) => typeof object.properties.dealstage === 'string')) return objects;
    const map = await this.current();
    if (!map) return objects;
    return objects.map((object) => {
      const name = typeof object.properties.dealstage === 'string' ? map.toSpec.get(object.properties.dealstage) : undefined;
      return name === undefined ? object : { ...object, properties: { ...object.properties, dealstage: name } };
    });
  }

  private async current(): Promise<StageMap | null> {
    if (this.kept) return this.kept;
    if (!this.map || this.map.until <= this.now())
      this.map = { value: this.readPipelines().then((pipelines) => stageMapOf(pipelines, this.pipelineId)), until: this.now() + STAGE_MAP_TTL_MS };
    const entry = this.map;
    try {
      const map = await entry.value;
      if (!map && this.map === entry) this.map = undefined; // not installed yet: look again next time
      return map;
    } catch (error) {
      if (this.map === entry) this.map = undefined;
      throw error;
    }
  }
}
