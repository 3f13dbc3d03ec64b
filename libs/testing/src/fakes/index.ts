export { asRepositories, copy } from './public-of';
export type { PublicOf } from './public-of';
export * from './builders';
export { FakeBroker, asBroker, topicMatches } from './broker/fake-broker';
export type { PublishedMessage } from './broker/fake-broker';
export { FakeImportRepository, moveImport } from './repositories/fake-import.repository';
export { InMemoryCasStore } from './repositories/in-memory-cas-store';
export type { Revised } from './repositories/in-memory-cas-store';
export { describeImportRepositoryContract } from './contracts/import-repository.contract';
export { FakeSettingsRepository } from './repositories/fake-settings.repository';
export { FakeStoreRepository } from './repositories/fake-store.repository';
export { FakeReapplyJobRepository } from './repositories/fake-reapply-job.repository';
export { describeSettingsRepositoryContract } from './contracts/settings-repository.contract';
export { describeStoreRepositoryContract } from './contracts/store-repository.contract';
export { describeReapplyJobRepositoryContract } from './contracts/reapply-job-repository.contract';
export { FakeObjectStateRepository } from './repositories/fake-object-state.repository';
export { FakeRawMessageRepository } from './repositories/fake-raw-message.repository';
export { describeObjectStateRepositoryContract } from './contracts/object-state-repository.contract';
export { describeRawMessageRepositoryContract } from './contracts/raw-message-repository.contract';
export { FakeCrm } from './crm/fake-crm';
export { describeCrmPortContract } from './contracts/crm-port.contract';
export type { MakeCrm } from './contracts/crm-port.contract';
export { FakeCrmWaitRepository } from './repositories/fake-crm-wait.repository';
export { FakeParkedChangeRepository } from './repositories/fake-parked-change.repository';
export { describeCrmWaitRepositoryContract } from './contracts/crm-wait-repository.contract';
export { describeParkedChangeRepositoryContract } from './contracts/parked-change-repository.contract';
export { FakeSyncErrorRepository } from './repositories/fake-sync-error.repository';
export { describeSyncErrorRepositoryContract } from './contracts/sync-error-repository.contract';
export { FakeObjectSyncRepository } from './repositories/fake-object-sync.repository';
export { describeObjectSyncRepositoryContract } from './contracts/object-sync-repository.contract';
export { FakeWaitingObjectRepository } from './repositories/fake-waiting-object.repository';
export { describeWaitingObjectRepositoryContract } from './contracts/waiting-object-repository.contract';
export { FakePortalRepository } from './repositories/fake-portal.repository';
export { describePortalRepositoryContract } from './contracts/portal-repository.contract';
export { FakeEcommerceInstallRepository } from './repositories/fake-ecommerce-install.repository';
export { describeEcommerceInstallRepositoryContract } from './contracts/ecommerce-install-repository.contract';
export { FakeCheckoutRepository } from './repositories/fake-checkout.repository';
export { describeCheckoutRepositoryContract } from './contracts/checkout-repository.contract';
export { FakeAccountRepository } from './repositories/fake-account.repository';
export { describeAccountRepositoryContract } from './contracts/account-repository.contract';
export { FakeCredentialRepository } from './repositories/fake-credential.repository';
export { describeCredentialRepositoryContract } from './contracts/credential-repository.contract';
export {
  FakeConsoleActivityRepository,
  FakeConsoleOverviewRepository,
  FakeConsoleReportRepository,
  fakeConsoleReadModels,
} from './repositories/fake-console.repositories';
export type { ConsoleSources } from './repositories/fake-console.repositories';
export { describeConsoleReadModelsContract } from './contracts/console-read-models.contract';
export type { ConsoleReadModels } from './contracts/console-read-models.contract';
export { FakeAlertRuleRepository } from './repositories/fake-alert-rule.repository';
export { FakeAlertDestinationRepository, FakeAlertNoticeRepository } from './repositories/fake-alert-notice.repository';
export { describeAlertRuleRepositoryContract } from './contracts/alert-rule-repository.contract';
export { describeAlertDestinationRepositoryContract, describeAlertNoticeRepositoryContract } from './contracts/alert-notice-repository.contract';
export { describeSyncLagContract } from './contracts/sync-lag.contract';
export type { SyncLagRepositories } from './contracts/sync-lag.contract';
export * from './alert-builders';
