import {
  type AccountRepository,
  type Application,
  type Developer,
  hashSecret,
  type Install,
  type InstallKey,
  type Listing,
  type ListingPage,
  secretMatches,
} from '@ecomm-sync/data-access';
import { keyOf } from '@ecomm-sync/domain';
import { copy, type PublicOf } from '../public-of';

type StoredApplication = Application & { clientSecretHash: string; clientSecretSealed: string };

const duplicate = (what: string) => new Error(`E11000 duplicate key error: ${what}`);
const toApplication = ({ appId, developerId, name, clientId }: StoredApplication): Application => ({ appId, developerId, name, clientId });

const pageOf = <T>(records: T[], limit: number): Listing<T> => ({ results: records.slice(0, limit), hasMore: records.length > limit });

/** AccountRepository in memory: developers, applications (secrets kept as hashes, and sealed) and installs. */
export class FakeAccountRepository implements PublicOf<AccountRepository> {
  private readonly developers = new Map<number, Developer>();
  private readonly applications = new Map<string, StoredApplication>();
  private readonly installs = new Map<string, Install>();
  private readonly sequences = { developerId: 0, appId: 0 };

  async nextId(sequence: 'developerId' | 'appId'): Promise<number> {
    return (sequence === 'appId' ? 2_000_000 : 5_000_000) + ++this.sequences[sequence];
  }

  async createDeveloper(developer: Developer): Promise<Developer> {
    if (this.developers.has(developer.developerId)) throw duplicate(`developerId ${developer.developerId}`);
    this.developers.set(developer.developerId, { developerId: developer.developerId, name: developer.name });
    return { developerId: developer.developerId, name: developer.name };
  }

  async findDeveloper(developerId: number): Promise<Developer | null> {
    const found = this.developers.get(developerId);
    return found ? copy(found) : null;
  }

  async listDevelopers(page: ListingPage<number>): Promise<Listing<Developer>> {
    const after = page.after;
    const sorted = [...this.developers.values()].sort((a, b) => a.developerId - b.developerId);
    return pageOf(sorted.filter((developer) => after === undefined || developer.developerId > after).map(copy), page.limit);
  }

  async createApplication(application: Application & { clientSecret: string; sealedSecret: string }): Promise<Application> {
    const { clientSecret, sealedSecret, ...rest } = application;
    if (this.applications.has(rest.appId)) throw duplicate(`appId ${rest.appId}`);
    if ([...this.applications.values()].some((stored) => stored.clientId === rest.clientId)) throw duplicate(`clientId ${rest.clientId}`);
    this.applications.set(rest.appId, { ...copy(rest), clientSecretHash: hashSecret(clientSecret), clientSecretSealed: sealedSecret });
    return rest;
  }

  async sealedClientSecrets(): Promise<{ appId: string; sealed: string }[]> {
    throw new Error('FakeAccountRepository.sealedClientSecrets is not faked: the reseal command is tested against MongoDB');
  }

  async replaceSealedClientSecret(): Promise<boolean> {
    throw new Error('FakeAccountRepository.replaceSealedClientSecret is not faked: the reseal command is tested against MongoDB');
  }

  async sealedClientSecret(appId: string): Promise<string | null> {
    return this.applications.get(appId)?.clientSecretSealed ?? null;
  }

  async findApplication(appId: string): Promise<Application | null> {
    const found = this.applications.get(appId);
    return found ? toApplication(found) : null;
  }

  async listApplications(filter: { developerId?: number }, page: ListingPage<string>): Promise<Listing<Application>> {
    const after = page.after;
    const found = [...this.applications.values()]
      .filter((application) => filter.developerId === undefined || application.developerId === filter.developerId)
      .filter((application) => after === undefined || application.appId > after)
      .sort((a, b) => (a.appId < b.appId ? -1 : a.appId > b.appId ? 1 : 0))
      .map(toApplication);
    return pageOf(found, page.limit);
  }

  async authenticateClient(clientId: string, clientSecret: string): Promise<Application | null> {
    const found = [...this.applications.values()].find((application) => application.clientId === clientId);
    return found && secretMatches(clientSecret, found.clientSecretHash) ? toApplication(found) : null;
  }

  async setClientSecret(appId: string, clientSecret: string, sealedSecret: string): Promise<boolean> {
    const found = this.applications.get(appId);
    if (!found) return false;
    found.clientSecretHash = hashSecret(clientSecret);
    found.clientSecretSealed = sealedSecret;
    return true;
  }

  async install(portalId: number, appId: string, now: number): Promise<Install> {
    const key = keyOf(portalId, appId);
    if (!this.installs.has(key)) this.installs.set(key, { portalId, appId, installedAt: now });
    return copy(this.installs.get(key)!);
  }

  async findInstall(portalId: number, appId: string): Promise<Install | null> {
    const found = this.installs.get(keyOf(portalId, appId));
    return found ? copy(found) : null;
  }

  async listInstalls(filter: { portalId?: number; appId?: string } = {}): Promise<Install[]> {
    return [...this.installs.values()]
      .filter(
        (install) => (filter.portalId === undefined || install.portalId === filter.portalId) && (filter.appId === undefined || install.appId === filter.appId),
      )
      .sort((a, b) => a.portalId - b.portalId || (a.appId < b.appId ? -1 : a.appId > b.appId ? 1 : 0))
      .map(copy);
  }

  async pageInstalls(filter: { portalId?: number; appId?: string }, page: ListingPage<InstallKey>): Promise<Listing<Install>> {
    const after = page.after;
    const found = (await this.listInstalls(filter)).filter(
      (install) => !after || install.portalId > after.portalId || (install.portalId === after.portalId && install.appId > after.appId),
    );
    return pageOf(found, page.limit);
  }

  async removeInstall(portalId: number, appId: string): Promise<boolean> {
    return this.installs.delete(keyOf(portalId, appId));
  }
}
