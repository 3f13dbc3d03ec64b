import type { StoredCrmExchange, StoredCrmExchangeMessage } from '@ecomm-sync/data-access';

/**
 * One request the service sent to a CRM and what came back (decision 0051): one per attempt, so a
 * 429 and the 200 of its retry are two exchanges. Bodies and headers are redacted and bounded
 * before they are kept (crm-exchange-redaction.ts).
 */
export type CrmExchange = StoredCrmExchange;

/** A request or an answer as kept: redacted headers, and the body as redacted text cut at the bound. */
export type CrmExchangeMessage = StoredCrmExchangeMessage;

/**
 * Where a CRM client hands its exchanges. `record` must return at once and never throw: the
 * request it describes is the work, the record is not (CrmRequestLog buffers them).
 */
export interface CrmExchangeSink {
  record(exchange: CrmExchange): void;
}

/** The key under which an exchange is found for an object: its sync key or its CRM id, by type. */
export const crmObjectKey = (objectType: string, kind: 'key' | 'crm', value: string | number): string => `${objectType}:${kind}:${value}`;
