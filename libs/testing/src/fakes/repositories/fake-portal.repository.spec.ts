import { describePortalRepositoryContract } from '../contracts/portal-repository.contract';
import { FakePortalRepository } from './fake-portal.repository';

describePortalRepositoryContract('FakePortalRepository', () => new FakePortalRepository());
