import type { Connection, mongo } from 'mongoose';
import { counterModel } from '../models/portal.model';
import { onlyDuplicateKeyErrors } from '../duplicate-key';

/**
 * Named sequences (portal, developer and application ids). A find-and-modify `$inc` hands out the
 * same value twice under concurrency on the development server (decision 15), so every value is
 * also claimed by inserting it into `sequence_claims` (an insert on a unique key is atomic on every
 * MongoDB-compatible server); a value claimed already is skipped for the next one.
 */
export class Sequences {
  private readonly counters;
  private readonly claims: mongo.Collection<{ _id: string }>;

  constructor(connection: Connection) {
    this.counters = counterModel(connection);
    this.claims = connection.collection<{ _id: string }>('sequence_claims');
  }

  async next(name: string): Promise<number> {
    for (;;) {
      try {
        const counter = await this.counters
          .findOneAndUpdate({ _id: name }, { $inc: { seq: 1 } }, { upsert: true, new: true, setDefaultsOnInsert: true })
          .lean<{ seq: number }>();
        await this.claims.insertOne({ _id: `${name}:${counter!.seq}` });
        return counter!.seq;
      } catch (error) {
        // Two first writers of the counter, or a value handed out twice: take the next one.
        if (!onlyDuplicateKeyErrors(error)) throw error;
      }
    }
  }
}
