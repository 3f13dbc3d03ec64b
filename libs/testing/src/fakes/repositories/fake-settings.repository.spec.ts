import { describeSettingsRepositoryContract } from '../contracts/settings-repository.contract';
import { FakeSettingsRepository } from './fake-settings.repository';

describeSettingsRepositoryContract('FakeSettingsRepository', () => new FakeSettingsRepository());
