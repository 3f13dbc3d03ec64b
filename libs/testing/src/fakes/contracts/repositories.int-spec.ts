import { describeAlertDestinationRepositoryContract, describeAlertNoticeRepositoryContract } from './alert-notice-repository.contract';
import { describeAlertRuleRepositoryContract } from './alert-rule-repository.contract';
import { describeCrmWaitRepositoryContract } from './crm-wait-repository.contract';
import { describeImportReleaseContract } from './import-release.contract';
import { describeImportRepositoryContract } from './import-repository.contract';
import { describeIntakePaceRepositoryContract } from './intake-pace-repository.contract';
import { describeObjectSyncRepositoryContract } from './object-sync-repository.contract';
import { describeObjectStateRepositoryContract } from './object-state-repository.contract';
import { describeParkedChangeRepositoryContract } from './parked-change-repository.contract';
import { describeRawMessageRepositoryContract } from './raw-message-repository.contract';
import { describeReapplyJobRepositoryContract } from './reapply-job-repository.contract';
import { describeWaitingObjectRepositoryContract } from './waiting-object-repository.contract';
import { describePortalRepositoryContract } from './portal-repository.contract';
import { describeEcommerceInstallRepositoryContract } from './ecommerce-install-repository.contract';
import { describeCheckoutRepositoryContract } from './checkout-repository.contract';
import { describeAccountRepositoryContract } from './account-repository.contract';
import { describeCredentialRepositoryContract } from './credential-repository.contract';
import { describeConsoleReadModelsContract } from './console-read-models.contract';
import { realDatabase } from './real-database';
import { describeSettingsRepositoryContract } from './settings-repository.contract';
import { describeStoreRepositoryContract } from './store-repository.contract';
import { describeSyncErrorRepositoryContract } from './sync-error-repository.contract';
import { describeSyncLagContract } from './sync-lag.contract';

/** The contracts the fakes pass (their *.spec.ts), against the real repositories on the MongoDB-wire server. */
describe('real repositories on the MongoDB-wire server', () => {
  const database = realDatabase('repositories');
  describeImportRepositoryContract('ImportRepository', () => database().repositories.imports);
  describeImportReleaseContract('ImportRepository', () => database().repositories.imports);
  describeSettingsRepositoryContract('SettingsRepository', () => database().repositories.settings);
  describeStoreRepositoryContract('StoreRepository', () => database().repositories.stores);
  describeReapplyJobRepositoryContract('ReapplyJobRepository', () => database().repositories.reapplyJobs);
  describeObjectStateRepositoryContract('ObjectStateRepository', () => database().repositories.objectStates);
  describeRawMessageRepositoryContract('RawMessageRepository', () => database().repositories.rawMessages);
  describeCrmWaitRepositoryContract('CrmWaitRepository', () => database().repositories.crmWaits);
  describeIntakePaceRepositoryContract('IntakePaceRepository', () => database().repositories.intakePaces);
  describeParkedChangeRepositoryContract('ParkedChangeRepository', () => database().repositories.parkedChanges);
  describeSyncErrorRepositoryContract('SyncErrorRepository', () => database().repositories.syncErrors);
  describeObjectSyncRepositoryContract('ObjectSyncRepository', () => database().repositories.objectSyncs);
  describeWaitingObjectRepositoryContract('WaitingObjectRepository', () => database().repositories.waitingObjects);
  describePortalRepositoryContract('PortalRepository', () => database().repositories.portals);
  describeEcommerceInstallRepositoryContract('EcommerceInstallRepository', () => database().repositories.ecommerceInstalls);
  describeCheckoutRepositoryContract('CheckoutRepository', () => database().repositories.checkouts);
  describeAccountRepositoryContract('AccountRepository', () => database().repositories.accounts);
  describeCredentialRepositoryContract('CredentialRepository', () => database().repositories.credentials);
  describeConsoleReadModelsContract('the real read models', () => database().repositories);
  describeAlertRuleRepositoryContract('AlertRuleRepository', () => database().repositories.alertRules);
  describeAlertNoticeRepositoryContract('AlertNoticeRepository', () => database().repositories.alertNotices);
  describeAlertDestinationRepositoryContract('AlertDestinationRepository', () => database().repositories.alertDestinations);
  describeSyncLagContract('ObjectStateRepository with ObjectSyncRepository', () => ({
    states: database().repositories.objectStates,
    syncs: database().repositories.objectSyncs,
  }));
});
