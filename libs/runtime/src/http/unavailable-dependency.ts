import { AppError } from './app-error';

/**
 * Driver errors that mean the database cannot be reached right now (it restarts, fails over, or
 * the network is away), not that the request was wrong: MongoDB driver error classes by name, so
 * that this util needs no driver. The request can simply be sent again.
 */
const DATABASE_AWAY = /^Mongo(Network|NetworkTimeout|ServerSelection|NotConnected|TopologyClosed|PoolCleared|ServerClosed)Error$/;

function isDatabaseAway(error: unknown): boolean {
  for (let current = error, depth = 0; current instanceof Error && depth < 5; current = current.cause, depth++) {
    if (DATABASE_AWAY.test(current.name)) return true;
  }
  return false;
}

/** How long a client is asked to wait before sending again. */
const RETRY_AFTER_SECONDS = '5';

/**
 * The CRM client's errors (by class name, so that this util needs no CRM client): a refusal, and
 * the CRM not answering or out of budget within the client's wait (its subclass).
 */
const isCrmFailure = (error: unknown): error is Error => error instanceof Error && (error.name === 'CrmRequestError' || error.name === 'CrmUnavailableError');

/**
 * The answer a request gets while a dependency is away or failing: 503 when the database cannot be
 * reached, 502 when the CRM did not answer or refused; undefined for any other error.
 */
export function unavailableDependency(error: unknown): AppError | undefined {
  if (isCrmFailure(error))
    return new AppError(502, `The CRM did not answer properly (${error.message}); send the request again later`, { 'retry-after': RETRY_AFTER_SECONDS });
  if (!isDatabaseAway(error)) return undefined;
  return new AppError(503, 'The database cannot be reached right now; nothing was changed. Send the request again in a few seconds.', {
    'retry-after': RETRY_AFTER_SECONDS,
  });
}
