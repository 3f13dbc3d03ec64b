import { describeCrmWaitRepositoryContract } from './crm-wait-repository.contract';
import { describeImportRepositoryContract } from './import-repository.contract';
import { describeObjectStateRepositoryContract } from './object-state-repository.contract';
import { describeParkedChangeRepositoryContract } from './parked-change-repository.contract';
import { describeRawMessageRepositoryContract } from './raw-message-repository.contract';
import { describeReapplyJobRepositoryContract } from './reapply-job-repository.contract';
import { realDatabase } from './real-database';
import { describeSettingsRepositoryContract } from './settings-repository.contract';
import { describeStoreRepositoryContract } from './store-repository.contract';
import { describeSyncErrorRepositoryContract } from './sync-error-repository.contract';

/** The contracts the fakes pass (their *.spec.ts), against the real repositories on the MongoDB-wire server. */
describe('real repositories on the MongoDB-wire server', () => {
  const database = realDatabase('repositories');
  describeImportRepositoryContract('ImportRepository', () => database().repositories.imports);
  describeSettingsRepositoryContract('SettingsRepository', () => database().repositories.settings);
  describeStoreRepositoryContract('StoreRepository', () => database().repositories.stores);
  describeReapplyJobRepositoryContract('ReapplyJobRepository', () => database().repositories.reapplyJobs);
  describeObjectStateRepositoryContract('ObjectStateRepository', () => database().repositories.objectStates);
  describeRawMessageRepositoryContract('RawMessageRepository', () => database().repositories.rawMessages);
  describeCrmWaitRepositoryContract('CrmWaitRepository', () => database().repositories.crmWaits);
  describeParkedChangeRepositoryContract('ParkedChangeRepository', () => database().repositories.parkedChanges);
  describeSyncErrorRepositoryContract('SyncErrorRepository', () => database().repositories.syncErrors);
});
