import { describeCrmWaitRepositoryContract } from '../contracts/crm-wait-repository.contract';
import { FakeCrmWaitRepository } from './fake-crm-wait.repository';

describeCrmWaitRepositoryContract('FakeCrmWaitRepository', () => new FakeCrmWaitRepository());
