import mongoose, { type Connection } from 'mongoose';
import { DatabaseClock } from './database-clock';
import { AccountRepository } from './repositories/account.repository';
import { AlertCountersRepository } from './repositories/alert-counters.repository';
import { AlertDestinationRepository } from './repositories/alert-destination.repository';
import { AlertNoticeRepository } from './repositories/alert-notice.repository';
import { AlertRuleRepository } from './repositories/alert-rule.repository';
import { ConsoleOverviewRepository } from './repositories/console-overview.repository';
import { ConsoleActivityRepository, ConsoleReportRepository } from './repositories/console-report.repository';
import { CheckoutRepository } from './repositories/checkout.repository';
import { CredentialRepository } from './repositories/credential.repository';
import { ImportRepository } from './repositories/import.repository';
import { EcommerceInstallRepository } from './repositories/ecommerce-install.repository';
import { ReapplyJobRepository } from './repositories/reapply-job.repository';
import { WaitingObjectRepository } from './repositories/waiting-object.repository';
import { ParkedChangeRepository } from './repositories/parked-change.repository';
import { CrmWaitRepository } from './repositories/crm-wait.repository';
import { CrmExchangeRepository } from './repositories/crm-exchange.repository';
import { CrmPropertyNamesRepository } from './repositories/crm-property-names.repository';
import { ObjectStateRepository } from './repositories/object-state.repository';
import { ObjectSyncRepository } from './repositories/object-sync.repository';
import { IntakePaceRepository } from './repositories/intake-pace.repository';
import { PortalRepository } from './repositories/portal.repository';
import { RawMessageRepository } from './repositories/raw-message.repository';
import { SettingsRepository } from './repositories/settings.repository';
import { StoreRepository } from './repositories/store.repository';
import { SyncErrorRepository } from './repositories/sync-error.repository';
import { dropRetiredIndexes, type UndroppedIndex } from './retired-indexes';

export interface Repositories {
  portals: PortalRepository;
  settings: SettingsRepository;
  stores: StoreRepository;
  rawMessages: RawMessageRepository;
  objectStates: ObjectStateRepository;
  objectSyncs: ObjectSyncRepository;
  syncErrors: SyncErrorRepository;
  accounts: AccountRepository;
  credentials: CredentialRepository;
  ecommerceInstalls: EcommerceInstallRepository;
  checkouts: CheckoutRepository;
  imports: ImportRepository;
  reapplyJobs: ReapplyJobRepository;
  waitingObjects: WaitingObjectRepository;
  parkedChanges: ParkedChangeRepository;
  crmWaits: CrmWaitRepository;
  intakePaces: IntakePaceRepository;
  crmPropertyNames: CrmPropertyNamesRepository;
  crmExchanges: CrmExchangeRepository;
  consoleOverview: ConsoleOverviewRepository;
  consoleReport: ConsoleReportRepository;
  consoleActivity: ConsoleActivityRepository;
  alertRules: AlertRuleRepository;
  alertDestinations: AlertDestinationRepository;
  alertNotices: AlertNoticeRepository;
  alertCounters: AlertCountersRepository;
}

export interface Database {
  connection: Connection;
  repositories: Repositories;
  /** Retired indexes this start could not drop (retired-indexes.ts): the service logs them. */
  undroppedIndexes: UndroppedIndex[];
  /** The database server's clock, for times replicas share through the database (database-clock.ts). */
  clock: DatabaseClock;
  ping(): Promise<boolean>;
  close(): Promise<void>;
}

export interface ConnectOptions {
  /** Told once when the server's clock cannot be read (the shared times then follow this replica's own clock). */
  onClockFailure?: (error: unknown) => void;
}

/**
 * Opens a connection (no serverApi: the development server rejects it), builds every index, drops
 * the retired ones, and starts reading the server's clock.
 */
export async function connectDatabase(url: string, dbName: string, options: ConnectOptions = {}): Promise<Database> {
  const connection = await mongoose.createConnection(url, { dbName, serverSelectionTimeoutMS: 10_000, maxPoolSize: 20, autoIndex: false }).asPromise();
  const repositories: Repositories = {
    portals: new PortalRepository(connection),
    settings: new SettingsRepository(connection),
    stores: new StoreRepository(connection),
    rawMessages: new RawMessageRepository(connection),
    objectStates: new ObjectStateRepository(connection),
    objectSyncs: new ObjectSyncRepository(connection),
    syncErrors: new SyncErrorRepository(connection),
    accounts: new AccountRepository(connection),
    credentials: new CredentialRepository(connection),
    ecommerceInstalls: new EcommerceInstallRepository(connection),
    checkouts: new CheckoutRepository(connection),
    imports: new ImportRepository(connection),
    reapplyJobs: new ReapplyJobRepository(connection),
    waitingObjects: new WaitingObjectRepository(connection),
    parkedChanges: new ParkedChangeRepository(connection),
    crmWaits: new CrmWaitRepository(connection),
    intakePaces: new IntakePaceRepository(connection),
    crmPropertyNames: new CrmPropertyNamesRepository(connection),
    crmExchanges: new CrmExchangeRepository(connection),
    consoleOverview: new ConsoleOverviewRepository(connection),
    consoleReport: new ConsoleReportRepository(connection),
    consoleActivity: new ConsoleActivityRepository(connection),
    alertRules: new AlertRuleRepository(connection),
    alertDestinations: new AlertDestinationRepository(connection),
    alertNotices: new AlertNoticeRepository(connection),
    alertCounters: new AlertCountersRepository(connection),
  };
  await Promise.all(Object.values(connection.models).map((model) => model.createIndexes()));
  const undroppedIndexes = await dropRetiredIndexes(connection);
  // isMaster, not hello: every MongoDB answers it with localTime, and so does the development server.
  const clock = new DatabaseClock(async () => (await connection.db!.admin().command({ isMaster: 1 })).localTime as Date, {
    onFailure: options.onClockFailure,
  });
  await clock.start();
  return {
    undroppedIndexes,
    clock,
    connection,
    repositories,
    async ping() {
      try {
        await connection.db!.admin().command({ ping: 1 });
        return true;
      } catch {
        return false;
      }
    },
    close: async () => {
      clock.stop();
      await connection.close();
    },
  };
}
