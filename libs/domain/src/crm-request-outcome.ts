/** How a CRM request ended, as its metrics count it. */
export type CrmRequestOutcome = 'ok' | 'rate_limited' | 'client_error' | 'server_error' | 'no_answer';

/** The outcome of one CRM request from its HTTP status (undefined or 0: no answer, e.g. a timeout or a refused connection). */
export function crmRequestOutcome(status: number | undefined): CrmRequestOutcome {
  if (!status) return 'no_answer';
  if (status === 429) return 'rate_limited';
  if (status >= 500) return 'server_error';
  if (status >= 400) return 'client_error';
  return 'ok';
}
