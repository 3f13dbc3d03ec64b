import { describeCheckoutRepositoryContract } from '../contracts/checkout-repository.contract';
import { FakeCheckoutRepository } from './fake-checkout.repository';

describeCheckoutRepositoryContract('FakeCheckoutRepository', () => new FakeCheckoutRepository());
