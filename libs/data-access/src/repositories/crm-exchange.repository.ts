import type { Connection } from 'mongoose';
import type { ConsoleCrmExchange, ConsoleCrmExchangeMessage } from '@ecomm-sync/contracts';
import { crmExchangeModel } from '../models/crm-exchange.model';
import { driverCollection } from '../driver-collection';

/** A request or answer as the log keeps it: redacted headers, and the body cut at its bound (the console's shape). */
export type StoredCrmExchangeMessage = ConsoleCrmExchangeMessage;

/**
 * One attempt of a CRM request and its answer, as the CRM clients record it (libs/crm-client
 * CrmExchange) and the console shows it: the one shape is the console API's, stored with a Date.
 */
export type StoredCrmExchange = Omit<ConsoleCrmExchange, 'id' | 'at'> & { at: Date };

/** An exchange as read back: with its id. */
export type CrmExchangeRecord = StoredCrmExchange & { id: string };

type CrmExchangeDoc = StoredCrmExchange & { _id?: unknown };

const toRecord = ({ _id, ...exchange }: CrmExchangeDoc): CrmExchangeRecord => ({ id: String(_id), ...exchange });

/** The CRM request log (decision 0051): written in unordered batches, read by object and by account, kept 7 days (TTL). */
export class CrmExchangeRepository {
  private readonly exchanges;

  constructor(connection: Connection) {
    this.exchanges = driverCollection<CrmExchangeDoc>(crmExchangeModel(connection));
  }

  /** Stores a batch; unordered, so one refused document does not keep the others out. */
  async insertMany(exchanges: readonly StoredCrmExchange[]): Promise<void> {
    if (exchanges.length === 0) return;
    // The driver sets `_id` on the documents it is given: copies keep the caller's as they were.
    await this.exchanges.insertMany(
      exchanges.map((exchange) => ({ ...exchange })),
      { ordered: false },
    );
  }

  /**
   * A portal's exchanges that carried any of `objectKeys` (an object's sync keys and CRM ids), newest
   * first; with `sentFor`, those that carried its `keys` only when recorded as sent for its application
   * (a string: never the exchanges that recorded no tenant).
   */
  async listForObject(
    portalId: number,
    objectKeys: readonly string[],
    limit: number,
    sentFor?: { appId: string; keys: readonly string[] },
  ): Promise<CrmExchangeRecord[]> {
    const ownKeys = sentFor?.keys ?? [];
    if (objectKeys.length === 0 && ownKeys.length === 0) return [];
    const carrying = (keys: readonly string[]) => ({ objects: { $in: [...keys] } });
    // With `sentFor`, every key in one `$in` too: the index {portalId, objects, at} serves it, `$or` decides.
    const filter =
      sentFor && ownKeys.length > 0
        ? { portalId, objects: { $in: [...objectKeys, ...ownKeys] }, $or: [carrying(objectKeys), { ...carrying(ownKeys), appId: sentFor.appId }] }
        : { portalId, ...carrying(objectKeys) };
    const docs = await this.exchanges.find(filter).sort({ at: -1 }).limit(limit).toArray();
    return docs.map(toRecord);
  }

  /** The newest failed exchanges (no answer, 4xx, 5xx, 207) of one CRM account, or of every account. */
  async recentFailures(query: { account?: string; limit: number }): Promise<CrmExchangeRecord[]> {
    const docs = await this.exchanges
      .find(query.account === undefined ? { failed: true } : { account: query.account, failed: true })
      .sort({ at: -1 })
      .limit(query.limit)
      .toArray();
    return docs.map(toRecord);
  }
}
