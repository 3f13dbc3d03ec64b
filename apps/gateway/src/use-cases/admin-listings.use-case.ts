import type { Application, Developer, Install, InstallKey, Listing, ListingPage, Repositories } from '@ecomm-sync/data-access';
import { portalView, type PortalView } from './manage-accounts.use-case';

/** The admin API's listings, a page at a time by key (decision 62): what an operator reads of the accounts. */
export class AdminListingsUseCase {
  constructor(private readonly repositories: Pick<Repositories, 'portals' | 'accounts'>) {}

  async portals(page: ListingPage<number>): Promise<Listing<PortalView>> {
    const { results, hasMore } = await this.repositories.portals.list(page);
    return { results: results.map(portalView), hasMore };
  }

  developers(page: ListingPage<number>): Promise<Listing<Developer>> {
    return this.repositories.accounts.listDevelopers(page);
  }

  applications(developerId: number | undefined, page: ListingPage<string>): Promise<Listing<Application>> {
    return this.repositories.accounts.listApplications({ developerId }, page);
  }

  installs(filter: { portalId?: number; appId?: string }, page: ListingPage<InstallKey>): Promise<Listing<Install>> {
    return this.repositories.accounts.pageInstalls(filter, page);
  }
}
