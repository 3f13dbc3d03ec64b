import { describeCrmPortContract } from '../contracts/crm-port.contract';
import { FakeCrm } from './fake-crm';

describeCrmPortContract('FakeCrm', () => new FakeCrm());
