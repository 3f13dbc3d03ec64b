import type { Connection, Model } from 'mongoose';
import { portalModel, type PortalDocument } from '../models/portal.model';
import { Sequences } from './sequences';

export interface Portal {
  portalId: number;
  name: string;
  active: boolean;
  crmToken: string;
}

const toPortal = (doc: PortalDocument): Portal => ({ portalId: doc.portalId, name: doc.name, active: doc.active, crmToken: doc.crmToken });

export class PortalRepository {
  private readonly portals: Model<PortalDocument>;
  private readonly sequences: Sequences;

  constructor(connection: Connection) {
    this.portals = portalModel(connection) as unknown as Model<PortalDocument>;
    this.sequences = new Sequences(connection);
  }

  /** Next free portal id; ids start above the range people pick by hand for demos. */
  async nextPortalId(): Promise<number> {
    return 1_000_000 + (await this.sequences.next('portalId'));
  }

  /** A new portal, active. Its API key is a credential (CredentialRepository). */
  async create(portal: { portalId: number; name: string; crmToken: string }): Promise<Portal> {
    const doc = await this.portals.create({ portalId: portal.portalId, name: portal.name, active: true, crmToken: portal.crmToken });
    return toPortal(doc.toObject());
  }

  async list(): Promise<Portal[]> {
    const docs = await this.portals.find().sort({ portalId: 1 }).lean<PortalDocument[]>();
    return docs.map(toPortal);
  }

  async findById(portalId: number): Promise<Portal | null> {
    const doc = await this.portals.findOne({ portalId }).lean<PortalDocument>();
    return doc ? toPortal(doc) : null;
  }

  async setActive(portalId: number, active: boolean): Promise<boolean> {
    const result = await this.portals.updateOne({ portalId }, { $set: { active } });
    return result.matchedCount === 1;
  }
}
