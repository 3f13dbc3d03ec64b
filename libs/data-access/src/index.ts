export { connectDatabase } from './database';
export { isDatabaseUnreachable } from './database-errors';
export { DatabaseClock } from './database-clock';
export {
  NO_OTHER_SENDERS,
  type OtherSenders,
  SendingPortals,
  type SendingPortalsDeps,
  type SendingReadWarnings,
  servicesSendingPortals,
} from './sending-portals';
export { RETIRED_INDEXES, dropRetiredIndexes, type RetiredIndex, type UndroppedIndex } from './retired-indexes';
export { driverCollection } from './driver-collection';
export { findIn } from './find-in';
export { duplicateKeyIndexes, onlyDuplicateKeyErrors } from './duplicate-key';
export type { Database, Repositories } from './database';
export { keyString, type ObjectKey } from './object-key';
export { hashSecret, isSealed, keyList, newSecret, secretMatches, SecretBox, sealedFor } from './secrets';
export type { KeptEcommPipeline, Portal, PortalRepository, SealedPortalField, StoredCrmConnection, StoredOAuthToken } from './repositories/portal.repository';
export { SEALED_PORTAL_FIELDS, connectionVersionOf, currentEcommPipeline, sealedPortalFieldContext } from './repositories/portal.repository';
export type { StoredSettings, SettingsRepository } from './repositories/settings.repository';
export { settingsOwner, ownerDataFilter } from './repositories/settings.repository';
export type { Developer, Application, Install, AccountRepository } from './repositories/account.repository';
export type {
  Credential,
  CredentialKind,
  CredentialScope,
  CredentialRepository,
  InstallKey,
  KeyOwner,
  OutlivedBefore,
  RefreshTokenSpend,
} from './repositories/credential.repository';
export { keyGenerationId } from './repositories/credential.repository';
export type { ReapplyJob, ReapplyJobRepository } from './repositories/reapply-job.repository';
export type { OwnedObjectState } from './repositories/object-state.repository';
export type { Store, StoreRepository } from './repositories/store.repository';
export { deletedStoresAmong, storeKeyOf } from './repositories/store.repository';
export type { RawMessageRepository, StoredRawMessage } from './repositories/raw-message.repository';
export type { StoredObjectState, StateWrite, ObjectStateRepository } from './repositories/object-state.repository';
export { UNAPPLIED_SWEEP, type UnappliedSweep } from './repositories/unapplied-sweep';
export type { Claim, ObjectSync, ProcessedRecord, RecordOutcome, ObjectSyncRepository } from './repositories/object-sync.repository';
export type { SyncError, NewSyncError, ErrorQuery, RecordOptions, SyncErrorRepository } from './repositories/sync-error.repository';
export { OBJECT_ERRORS_PAGE } from './repositories/sync-error.repository';
export type { WaitingObject, WaitingObjectRepository } from './repositories/waiting-object.repository';
export type { ParkedChange, ParkedChangeRepository } from './repositories/parked-change.repository';
export type { CrmWaitRepository, StoredCrmWait } from './repositories/crm-wait.repository';
export type { IntakePaceRepository } from './repositories/intake-pace.repository';
export type { CrmExchangeRecord, CrmExchangeRepository, StoredCrmExchange, StoredCrmExchangeMessage } from './repositories/crm-exchange.repository';
export { CRM_EXCHANGE_RETENTION_SECONDS } from './models/crm-exchange.model';
export type { CrmPropertyNamesRepository, SharedPropertyNames } from './repositories/crm-property-names.repository';
export type { KeptUpTo } from './repositories/revision-filter';
export type { EcommerceInstall, EcommerceInstallRepository } from './repositories/ecommerce-install.repository';
export type { CheckoutRepository, CheckoutState, PendingCheckout } from './repositories/checkout.repository';
export type { ImportItem, ImportRecord, ImportRepository, ImportStatus, ImportTypeState, WebhookAttempt } from './repositories/import.repository';
export { CAS_LOST, COMPARE_AND_SET_RETRY, retryCompareAndSet, type CompareAndSetRetry } from './retry-compare-and-set';
export type { ConsoleActivityRepository, ConsoleReportRepository } from './repositories/console-report.repository';
export { consoleScopeFilter, inConsoleScope, type ConsoleScope } from './repositories/console-scope';
export type {
  ConsoleOverviewRepository,
  FlaggedObject,
  StoredObjectCounts,
  StoredOpenErrors,
  StoredStoreLabel,
} from './repositories/console-overview.repository';
export { emptyStoredCounts, FLAGGED_OBJECTS_LIMIT } from './repositories/console-overview.repository';
export type { AlertOutbox, AlertRule, AlertRuleFields, AlertRuleRepository } from './repositories/alert-rule.repository';
export { defaultAlertRules, defaultRuleId } from './repositories/alert-rule.repository';
export type { AlertNotice, AlertNoticeRepository, AlertNoticeStatus, NewAlertNotice, RequeueWindow } from './repositories/alert-notice.repository';
export { alertNoticeId } from './repositories/alert-notice.repository';
export type { AlertDestination, AlertDestinationRepository } from './repositories/alert-destination.repository';
export { destinationShown, destinationUrl, storedDestinationTarget } from './alert-destination-target';
export type { AlertCountersRepository, CounterNeeds } from './repositories/alert-counters.repository';
export { type Listing, type ListingPage } from './repositories/listing-page';
