import { timingSafeEqual } from 'node:crypto';
import type { Connection } from 'mongoose';
import { applicationModel, developerModel } from '../models/account.model';
import { counterModel } from '../models/portal.model';
import { hashSecret } from './portal.repository';

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

/** Developer accounts and their applications (SPEC.md point 7, application mode). */
export class AccountRepository {
  private readonly developers;
  private readonly applications;
  private readonly counters;

  constructor(connection: Connection) {
    this.developers = developerModel(connection);
    this.applications = applicationModel(connection);
    this.counters = counterModel(connection);
  }

  async nextId(sequence: 'developerId' | 'appId'): Promise<number> {
    const counter = await this.counters.findOneAndUpdate({ _id: sequence }, { $inc: { seq: 1 } }, { upsert: true, new: true }).lean<{ seq: number }>();
    return (sequence === 'appId' ? 2_000_000 : 5_000_000) + counter!.seq;
  }

  async createDeveloper(developer: Developer & { apiKey: string }): Promise<Developer> {
    await this.developers.create({ developerId: developer.developerId, name: developer.name, apiKeyHash: hashSecret(developer.apiKey) });
    return { developerId: developer.developerId, name: developer.name };
  }

  async findDeveloperByApiKey(apiKey: string): Promise<Developer | null> {
    const hash = hashSecret(apiKey);
    const doc = await this.developers.findOne({ apiKeyHash: hash }).lean<{ developerId: number; name: string; apiKeyHash: string }>();
    if (!doc || !timingSafeEqual(Buffer.from(doc.apiKeyHash, 'hex'), Buffer.from(hash, 'hex'))) return null;
    return { developerId: doc.developerId, name: doc.name };
  }

  async findDeveloper(developerId: number): Promise<Developer | null> {
    const doc = await this.developers.findOne({ developerId }).lean<Developer>();
    return doc ? { developerId: doc.developerId, name: doc.name } : null;
  }

  async createApplication(application: Application & { clientSecret: string }): Promise<Application> {
    const { clientSecret, ...rest } = application;
    await this.applications.create({ ...rest, clientSecretHash: hashSecret(clientSecret) });
    return rest;
  }

  async findApplication(appId: string): Promise<Application | null> {
    const doc = await this.applications.findOne({ appId }).lean<Application>();
    return doc ? { appId: doc.appId, developerId: doc.developerId, name: doc.name, clientId: doc.clientId } : null;
  }
}
