import { randomUUID } from 'node:crypto';
import type { Connection } from 'mongoose';
import type { Tenant } from '@ecomm-sync/contracts';
import { driverCollection } from '../driver-collection';
import { alertDestinationModel } from '../models/alert.model';

export interface AlertDestination {
  id: string;
  portalId: number;
  appId: string | null;
  kind: 'webhook' | 'slack' | 'email';
  /**
   * The e-mail address; for a webhook or Slack, the URL sealed (SecretBox,
   * sealedFor.alertDestinationUrl), or whole when stored before URLs were sealed: read it with
   * `destinationUrl`, show it with `destinationShown`.
   */
  target: string;
  /** How the target reads to everyone who reads the tenant's alerts (shownDestination); null when stored before. */
  shownTarget: string | null;
  label: string;
  /** The webhook's signing secret, sealed (SecretBox, sealedFor.alertDestinationSecret); null for the other kinds. */
  sealedSecret: string | null;
  createdAt: number;
}

type DestinationDoc = Omit<AlertDestination, 'id'> & { _id: string };

const owned = (tenant: Tenant) => ({ portalId: tenant.portalId, appId: tenant.appId });
const toDestination = ({ _id, ...doc }: DestinationDoc): AlertDestination => ({
  id: _id,
  ...doc,
  appId: doc.appId ?? null,
  shownTarget: doc.shownTarget ?? null,
});

/** Where a tenant's alert notices go (decision 0053): listed and added by tenant, their sealed values walked by `reseal`. */
export class AlertDestinationRepository {
  private readonly destinations;

  constructor(connection: Connection) {
    this.destinations = driverCollection<DestinationDoc>(alertDestinationModel(connection));
  }

  async list(tenant: Tenant): Promise<AlertDestination[]> {
    return (await this.destinations.find(owned(tenant)).sort({ createdAt: 1, _id: 1 }).toArray()).map(toDestination);
  }

  async find(id: string): Promise<AlertDestination | null> {
    const doc = await this.destinations.findOne({ _id: id });
    return doc ? toDestination(doc) : null;
  }

  /** `id` is the caller's when the secret is sealed for it before the destination is stored. */
  async add(
    tenant: Tenant,
    fields: Pick<AlertDestination, 'kind' | 'target' | 'shownTarget' | 'label' | 'sealedSecret'>,
    now: number,
    id = randomUUID(),
  ): Promise<AlertDestination> {
    const doc: DestinationDoc = { _id: id, ...owned(tenant), ...fields, createdAt: now };
    await this.destinations.insertOne(doc);
    return toDestination(doc);
  }

  async remove(tenant: Tenant, id: string): Promise<boolean> {
    return (await this.destinations.deleteOne({ _id: id, ...owned(tenant) })).deletedCount === 1;
  }

  /** Deletes every destination of a tenant (the application was removed from the portal); answers how many. */
  async removeAllOf(tenant: Tenant): Promise<number> {
    return (await this.destinations.deleteMany(owned(tenant))).deletedCount;
  }

  /** The sealed signing secrets after `afterId` (in id order), `limit` at a time (`reseal` walks them). */
  async sealedSecrets(afterId: string, limit: number): Promise<{ id: string; sealed: string }[]> {
    const docs = await this.destinations
      .find({ _id: { $gt: afterId }, sealedSecret: { $type: 'string' } })
      .sort({ _id: 1 })
      .limit(limit)
      .project<{ _id: string; sealedSecret: string }>({ sealedSecret: 1 })
      .toArray();
    return docs.map((doc) => ({ id: doc._id, sealed: doc.sealedSecret }));
  }

  /** Replaces a sealed signing secret if it is still the one read (compare and set); false otherwise. */
  async replaceSealedSecret(id: string, from: string, to: string): Promise<boolean> {
    return (await this.destinations.updateOne({ _id: id, sealedSecret: from }, { $set: { sealedSecret: to } })).matchedCount === 1;
  }

  /** The URLs (webhook, slack) after `afterId` (in id order), `limit` at a time, sealed or whole as stored (`reseal` walks them). */
  async urlTargets(afterId: string, limit: number): Promise<{ id: string; kind: AlertDestination['kind']; target: string }[]> {
    const docs = await this.destinations
      .find({ _id: { $gt: afterId }, kind: { $in: ['webhook', 'slack'] } })
      .sort({ _id: 1 })
      .limit(limit)
      .project<{ _id: string; kind: AlertDestination['kind']; target: string }>({ kind: 1, target: 1 })
      .toArray();
    return docs.map((doc) => ({ id: doc._id, kind: doc.kind, target: doc.target }));
  }

  /** Replaces a target (and how it reads) if it is still the one read (compare and set); false otherwise. */
  async replaceTarget(id: string, from: string, to: { target: string; shownTarget: string }): Promise<boolean> {
    return (await this.destinations.updateOne({ _id: id, target: from }, { $set: to })).matchedCount === 1;
  }
}
