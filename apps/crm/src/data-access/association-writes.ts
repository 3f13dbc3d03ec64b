import { duplicateKeyIndexes } from '@ecomm-sync/data-access';
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

/**
 * The writes of one association call to the documents of decision 56. A document that was there
 * gets the updates planned for it, in order (`$addToSet`, `$set`, `$pull`: they merge with what
 * another writer adds meanwhile). A new one is inserted whole, with what it holds once the call
 * planned everything: the development server's upsert of a missing document costs two to three
 * times its insert, and a first pass makes every document new. When another writer inserted the
 * same document first, the call's writes are made on that one as the updates would have made them:
 * its ids and labels added (an object's single association: its id set, the labels of other ids
 * taken off, its own added), and the ids it took off taken off.
 */
export class AssociationWrites {
  private readonly updates: Operation[] = [];
  private readonly created = new Map<string, { links: Links; replaces: boolean; pulled: Set<number> }>();

  constructor(private readonly portalId: number) {}

  /** `update` for the document `key`, whose `links` were already brought up to date with it; `replaces` for a single association. */
  change(key: string, links: Links, update: Update, replaces: boolean): void {
    if (!links.stored) {
      const planned = this.created.get(key);
      this.created.set(key, { links, replaces: replaces || (planned?.replaces ?? false), pulled: planned?.pulled ?? new Set() });
      return;
    }
    this.updates.push({ updateOne: { filter: { _id: key }, update: { ...update, $setOnInsert: { portalId: this.portalId } }, upsert: true } });
  }

  /** Takes `id` off the document `key` (its links, when this call read them, follow). */
  pull(key: string, links: Links | undefined, id: number): void {
    if (links) {
      links.ids = links.ids.filter((one) => one !== id);
      links.labels = links.labels.filter((ref) => ref.id !== id);
      if (!links.stored) return void this.created.get(key)?.pulled.add(id);
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
      const taken = duplicateKeyIndexes(error);
      if (!taken) throw error;
      await collection.bulkWrite(
        taken.flatMap((index) => {
          const [key, entry] = planned[index];
          return writesOnTaken(entry).map((update, at) => ({
            updateOne: { filter: { _id: key }, update: at === 0 ? { ...update, $setOnInsert: { portalId: this.portalId } } : update, upsert: at === 0 },
          }));
        }),
        { ordered: true },
      );
    }
  }
}

const contentsOf = ({ ids, labels }: Links) => ({ ids, ...(labels.length > 0 ? { labels } : {}) });

/** The updates that make on a document another writer inserted first what this call planned for it, in order. */
function writesOnTaken({ links, replaces, pulled }: { links: Links; replaces: boolean; pulled: ReadonlySet<number> }): Update[] {
  const addLabels = links.labels.length > 0 ? [{ $addToSet: { labels: { $each: links.labels } } }] : [];
  if (replaces) return [{ $set: { ids: links.ids }, $pull: { labels: { id: { $nin: links.ids } } } }, ...addLabels];
  const taken = [...pulled].filter((id) => !links.ids.includes(id));
  return [
    { $addToSet: { ids: { $each: links.ids } } },
    ...addLabels,
    ...(taken.length > 0 ? [{ $pull: { ids: { $in: taken }, labels: { id: { $in: taken } } } }] : []),
  ];
}
