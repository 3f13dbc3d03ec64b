import type { Connection } from 'mongoose';
import { crmPropertyNamesModel, crmPropertyReadModel } from '../models/crm-property-names.model';
import { onlyDuplicateKeyErrors } from '../duplicate-key';

/**
 * Property names a portal's CRM defines, read once for every replica: one replica reads them from
 * the CRM and keeps them here, the others take them from here (issue 25: the request floor).
 */
export interface SharedPropertyNames {
  /** The names kept for the key if they were read at `since` or later; else null. */
  fresh(key: string, since: number): Promise<string[] | null>;
  /**
   * Whether this caller reads the key's names from the CRM in the slot of `now` (slots of `slotMs`):
   * the first to ask in a slot gets it, every other caller in that slot does not.
   */
  claimRead(key: string, now: number, slotMs: number): Promise<boolean>;
  /** Keeps the names read at `readAt`, unless names read later are kept already (a read at the same time replaces). */
  save(key: string, names: readonly string[], readAt: number): Promise<void>;
}

export class CrmPropertyNamesRepository implements SharedPropertyNames {
  private readonly names;
  private readonly reads;

  constructor(connection: Connection) {
    this.names = crmPropertyNamesModel(connection).collection;
    this.reads = crmPropertyReadModel(connection).collection;
  }

  async fresh(key: string, since: number): Promise<string[] | null> {
    const doc = await this.names.findOne({ _id: key as never, readAt: { $gte: since } }, { projection: { names: 1 } });
    return doc ? (doc.names as string[]) : null;
  }

  async claimRead(key: string, now: number, slotMs: number): Promise<boolean> {
    const slot = Math.floor(now / slotMs);
    try {
      // An insert on a unique key is atomic on every MongoDB-compatible server (decision 15).
      await this.reads.insertOne({ _id: `${key}#${slot}` as never, expireAt: new Date((slot + 2) * slotMs) });
      return true;
    } catch (error) {
      if (onlyDuplicateKeyErrors(error)) return false;
      throw error;
    }
  }

  async save(key: string, names: readonly string[], readAt: number): Promise<void> {
    // Only over names read no later: where later ones are kept, the upsert's insert fails on the key.
    await this.names
      .updateOne({ _id: key as never, readAt: { $lte: readAt } }, { $set: { names: [...names], readAt } }, { upsert: true })
      .catch((error: unknown) => {
        if (!onlyDuplicateKeyErrors(error)) throw error;
      });
  }
}
