import type { Repositories } from '@ecomm-sync/data-access';
import type { Logger } from '@ecomm-sync/runtime';
import { CrmRequestLog } from './crm-request-log';

/** What the CRM request log needs of an app's config (libs/runtime/src/config crmRequestLogKeys). */
export interface CrmRequestLogConfig {
  CRM_REQUEST_LOG: string;
  CRM_REQUEST_LOG_MAX_BUFFERED: number;
}

/**
 * The app's CRM request log (decision 0051), writing to the database, or undefined when
 * CRM_REQUEST_LOG is off. What it holds is written on shutdown once in-flight work finished
 * (`onDrained`, from runService). It lives with the CRM client, not in the service shell, so that
 * only the apps that talk to a CRM load the client (and the vendor's SDK) at all.
 */
export function startCrmRequestLog(
  config: CrmRequestLogConfig,
  {
    database,
    logger,
    onDrained,
  }: { database: { repositories: Pick<Repositories, 'crmExchanges'> }; logger: Logger; onDrained: (finish: () => Promise<void>) => void },
): CrmRequestLog | undefined {
  if (config.CRM_REQUEST_LOG !== 'on') return undefined;
  const log = new CrmRequestLog({
    write: (exchanges) => database.repositories.crmExchanges.insertMany(exchanges),
    maxBuffered: config.CRM_REQUEST_LOG_MAX_BUFFERED,
    onWriteFailed: (error, exchanges) => logger.warn('CRM request log entries could not be written; they are dropped', { exchanges, error: String(error) }),
  });
  onDrained(() => log.close());
  return log;
}
