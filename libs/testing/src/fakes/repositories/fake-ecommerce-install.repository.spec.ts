import { describeEcommerceInstallRepositoryContract } from '../contracts/ecommerce-install-repository.contract';
import { FakeEcommerceInstallRepository } from './fake-ecommerce-install.repository';

describeEcommerceInstallRepositoryContract('FakeEcommerceInstallRepository', () => new FakeEcommerceInstallRepository());
