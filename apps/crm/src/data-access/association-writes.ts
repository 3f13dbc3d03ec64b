import type { mongo } from 'mongoose';
import type { AssociationLabelRef, ObjectAssociationsDoc } from './crm-models';

/** One object's associations with objects of one type, as read and kept current while one call plans its writes. */
export interface Links {
  ids: number[];
  labels: AssociationLabelRef[];
  /** Whether its document was there when read: a new one is inserted whole, once its contents are planned. */
  stored: boolean;
}

type Update = Record<string, unknown>;
type Operation = mongo.AnyBulkWriteOperation<ObjectAssociationsDoc>;

const DUPLICATE_KEY = 11000;

/**
 * The writes of one association call to the documents of decision 56. A document that was there
 * gets the updates planned for it, in order (`$addToSet`, `$set`, `$pull`: they merge with what
 * another writer adds meanwhile). A new one is inserted whole, with what it holds once the call
 * planned everything: the development server's upsert of a missing document costs two to three
 * times its insert, and a first pass makes every document new. When another writer inserted the
 * same document first, its contents are added to that one (or, for an object's single
 * association, replace it), as the update would have.
 */
export class AssociationWrites {
  private readonly updates: Operation[] = [];
  private readonly created = new Map<string, { links: Links; replaces: boolean }>();

  constructor(private readonly portalId: number) {}

  /** `update` for the document `key`, whose `links` were already brought up to date with it; `replaces` for a single association. */
  change(key: string, links: Links, update: Update, replaces: boolean): void {
    if (!links.stored) {
      const planned = this.created.get(key);
      this.created.set(key, { links, replaces: replaces || (planned?.replaces ?? false) });
      return;
    }
    this.updates.push({ updateOne: { filter: { _id: key }, update: { ...update, $setOnInsert: { portalId: this.portalId } }, upsert: true } });
  }

  /** Takes `id` off the document `key` (its links, when this call read them, follow). */
  pull(key: string, links: Links | undefined, id: number): void {
    if (links) {
      links.ids = links.ids.filter((one) => one !== id);
      links.labels = links.labels.filter((ref) => ref.id !== id);
      if (!links.stored) return;
    }
    this.updates.push({ updateOne: { filter: { _id: key }, update: { $pull: { ids: id, labels: { id } } } } });
  }

  async execute(collection: mongo.Collection<ObjectAssociationsDoc>): Promise<void> {
    if (this.created.size > 0) await this.insertCreated(collection);
    if (this.updates.length > 0) await collection.bulkWrite(this.updates, { ordered: true });
  }

  private async insertCreated(collection: mongo.Collection<ObjectAssociationsDoc>): Promise<void> {
    const planned = [...this.created];
    try {
      await collection.bulkWrite(
        planned.map(([key, { links }]) => ({ insertOne: { document: { _id: key, portalId: this.portalId, ...contentsOf(links) } } })),
        { ordered: false },
      );
    } catch (error) {
      const taken = takenIndexes(error);
      if (!taken) throw error;
      await collection.bulkWrite(
        taken.map((index) => {
          const [key, { links, replaces }] = planned[index];
          return { updateOne: { filter: { _id: key }, update: { ...mergeOf(links, replaces), $setOnInsert: { portalId: this.portalId } }, upsert: true } };
        }),
        { ordered: true },
      );
    }
  }
}

const contentsOf = ({ ids, labels }: Links) => ({ ids, ...(labels.length > 0 ? { labels } : {}) });

/** What a document inserted by another writer meanwhile gets of ours: added to its own, or in place of it for a single association. */
function mergeOf(links: Links, replaces: boolean): Update {
  if (replaces) return { $set: { ids: links.ids, labels: links.labels } };
  return { $addToSet: { ids: { $each: links.ids }, ...(links.labels.length > 0 ? { labels: { $each: links.labels } } : {}) } };
}

/** The inserts that failed because the document is there now, when that is every failure of the bulk write; otherwise null. */
function takenIndexes(error: unknown): number[] | null {
  const writeErrors = (error as { writeErrors?: { index: number; code?: number }[] }).writeErrors;
  if (!Array.isArray(writeErrors) || writeErrors.length === 0 || writeErrors.some((e) => e.code !== DUPLICATE_KEY)) return null;
  return writeErrors.map((e) => e.index);
}
