import type { Connection } from 'mongoose';
import { applicationModel, developerModel } from '../models/account.model';
import { installModel } from '../models/credential.model';
import { Sequences } from './sequences';
import type { InstallKey } from './credential.repository';
import { listingOf, type Listing, type ListingPage } from './listing-page';
import { hashSecret, isSealed, secretMatches } from '../secrets';

export interface Developer {
  developerId: number;
  name: string;
}

export interface Application {
  appId: string;
  developerId: number;
  name: string;
  clientId: string;
}

/** An application installed in a portal (the customer granted it access). */
export interface Install {
  portalId: number;
  appId: string;
  installedAt: number;
}

const toApplication = (doc: Application): Application => ({ appId: doc.appId, developerId: doc.developerId, name: doc.name, clientId: doc.clientId });
const toInstall = (doc: Install): Install => ({ portalId: doc.portalId, appId: doc.appId, installedAt: doc.installedAt });

/** Developer accounts, their applications, and installs of applications in portals (SPEC.md point 7). */
export class AccountRepository {
  private readonly developers;
  private readonly applications;
  private readonly installs;
  private readonly sequences: Sequences;

  constructor(connection: Connection) {
    this.developers = developerModel(connection);
    this.applications = applicationModel(connection);
    this.installs = installModel(connection);
    this.sequences = new Sequences(connection);
  }

  async nextId(sequence: 'developerId' | 'appId'): Promise<number> {
    return (sequence === 'appId' ? 2_000_000 : 5_000_000) + (await this.sequences.next(sequence));
  }

  /** A new developer account. Its API key is a credential (CredentialRepository). */
  async createDeveloper(developer: Developer): Promise<Developer> {
    await this.developers.create({ developerId: developer.developerId, name: developer.name });
    return { developerId: developer.developerId, name: developer.name };
  }

  async findDeveloper(developerId: number): Promise<Developer | null> {
    const doc = await this.developers.findOne({ developerId }).lean<Developer>();
    return doc ? { developerId: doc.developerId, name: doc.name } : null;
  }

  /** Developers in id order, a page at a time. */
  async listDevelopers(page: ListingPage<number>): Promise<Listing<Developer>> {
    const docs = await this.developers
      .find(page.after === undefined ? {} : { developerId: { $gt: page.after } })
      .sort({ developerId: 1 })
      .limit(page.limit + 1)
      .lean<Developer[]>();
    return listingOf(
      docs.map((doc) => ({ developerId: doc.developerId, name: doc.name })),
      page.limit,
    );
  }

  /** The applications' sealed client secrets after `afterAppId` (in appId order), `limit` at a time (`reseal` walks them). */
  async sealedClientSecrets(afterAppId: string, limit: number): Promise<{ appId: string; sealed: string }[]> {
    const docs = await this.applications
      .find({ appId: { $gt: afterAppId }, clientSecretSealed: { $type: 'string' } }, { appId: 1, clientSecretSealed: 1 })
      .sort({ appId: 1 })
      .limit(limit)
      .lean<{ appId: string; clientSecretSealed: string }[]>();
    return docs.map((doc) => ({ appId: doc.appId, sealed: doc.clientSecretSealed }));
  }

  /** Replaces an application's sealed client secret by the same secret sealed again, if it is still the one read. */
  async replaceSealedClientSecret(appId: string, from: string, to: string): Promise<boolean> {
    if (!isSealed(to)) throw new Error('a sealed value must be replaced by a sealed value (SecretBox.seal)');
    return (await this.applications.updateOne({ appId, clientSecretSealed: from }, { $set: { clientSecretSealed: to } })).modifiedCount === 1;
  }

  /** `sealedSecret`: the same secret sealed with the service's SecretBox (for signing). */
  async createApplication(application: Application & { clientSecret: string; sealedSecret: string }): Promise<Application> {
    const { clientSecret, sealedSecret, ...rest } = application;
    await this.applications.create({ ...rest, clientSecretHash: hashSecret(clientSecret), clientSecretSealed: sealedSecret });
    return rest;
  }

  /** The sealed client secret of an application (open it with the SecretBox), or null. */
  async sealedClientSecret(appId: string): Promise<string | null> {
    const doc = await this.applications.findOne({ appId }, { clientSecretSealed: 1 }).lean<{ clientSecretSealed?: string }>();
    return doc?.clientSecretSealed ?? null;
  }

  async findApplication(appId: string): Promise<Application | null> {
    const doc = await this.applications.findOne({ appId }).lean<Application>();
    return doc ? toApplication(doc) : null;
  }

  /** Applications (of one developer, or all) in appId order, a page at a time. */
  async listApplications(filter: { developerId?: number }, page: ListingPage<string>): Promise<Listing<Application>> {
    const query: Record<string, unknown> = {};
    if (filter.developerId !== undefined) query.developerId = filter.developerId;
    if (page.after !== undefined) query.appId = { $gt: page.after };
    const docs = await this.applications
      .find(query)
      .sort({ appId: 1 })
      .limit(page.limit + 1)
      .lean<Application[]>();
    return listingOf(docs.map(toApplication), page.limit);
  }

  /** The application with this client id when `clientSecret` is its secret (constant-time), else null. */
  async authenticateClient(clientId: string, clientSecret: string): Promise<Application | null> {
    const doc = await this.applications.findOne({ clientId }).lean<Application & { clientSecretHash: string }>();
    return doc && secretMatches(clientSecret, doc.clientSecretHash) ? toApplication(doc) : null;
  }

  async setClientSecret(appId: string, clientSecret: string, sealedSecret: string): Promise<boolean> {
    return (
      (await this.applications.updateOne({ appId }, { $set: { clientSecretHash: hashSecret(clientSecret), clientSecretSealed: sealedSecret } }))
        .matchedCount === 1
    );
  }

  /** Records the install (once; installing again keeps the first date). */
  async install(portalId: number, appId: string, now: number): Promise<Install> {
    await this.installs.updateOne({ portalId, appId }, { $setOnInsert: { installedAt: now } }, { upsert: true });
    return (await this.findInstall(portalId, appId))!;
  }

  async findInstall(portalId: number, appId: string): Promise<Install | null> {
    const doc = await this.installs.findOne({ portalId, appId }).lean<Install>();
    return doc ? toInstall(doc) : null;
  }

  async listInstalls(filter: { portalId?: number; appId?: string } = {}): Promise<Install[]> {
    const query: Record<string, unknown> = {};
    if (filter.portalId !== undefined) query.portalId = filter.portalId;
    if (filter.appId !== undefined) query.appId = filter.appId;
    const docs = await this.installs.find(query).sort({ portalId: 1, appId: 1 }).lean<Install[]>();
    return docs.map(toInstall);
  }

  /** Installs in (portal, application) order, a page at a time: the admin listing. */
  async pageInstalls(filter: { portalId?: number; appId?: string }, page: ListingPage<InstallKey>): Promise<Listing<Install>> {
    const query: Record<string, unknown> = {};
    if (filter.portalId !== undefined) query.portalId = filter.portalId;
    if (filter.appId !== undefined) query.appId = filter.appId;
    const { after } = page;
    if (after) query.$or = [{ portalId: { $gt: after.portalId } }, { portalId: after.portalId, appId: { $gt: after.appId } }];
    const docs = await this.installs
      .find(query)
      .sort({ portalId: 1, appId: 1 })
      .limit(page.limit + 1)
      .lean<Install[]>();
    return listingOf(docs.map(toInstall), page.limit);
  }

  async removeInstall(portalId: number, appId: string): Promise<boolean> {
    return (await this.installs.deleteOne({ portalId, appId })).deletedCount === 1;
  }
}
