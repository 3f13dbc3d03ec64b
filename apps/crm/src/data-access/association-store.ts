import type { mongo } from 'mongoose';
import { driverCollection } from '@ecomm-sync/data-access';
import { CrmError } from '../domain/crm-error';
import { SINGLE_ASSOCIATIONS, type CrmType } from '../domain/object-types';
import type { CrmModels, CrmObjectDoc } from './crm-models';
import type { ObjectReads } from './object-reads';

/** Associations between objects, both ways, kept on each object (`associations.{type}`: ids). */
export class AssociationStore {
  private readonly objects: mongo.Collection<CrmObjectDoc>;

  constructor(
    models: CrmModels,
    private readonly reads: Pick<ObjectReads, 'read'>,
  ) {
    this.objects = driverCollection<CrmObjectDoc>(models.objects);
  }

  /** The ids a live object is associated with, of one type; null when the object is unknown or archived. */
  async of(portalId: number, fromType: CrmType, id: number, toType: CrmType): Promise<number[] | null> {
    const [object] = await this.reads.read(portalId, fromType, [id]);
    if (!object) return null;
    const ids = Object.hasOwn(object.associations ?? {}, toType) ? object.associations[toType] : [];
    return (await this.reads.read(portalId, toType, ids)).map((target) => target.id);
  }

  /** Associates pairs both ways; a line item's deal and product replace the previous one. */
  async associate(portalId: number, fromType: CrmType, toType: CrmType, pairs: { from: number; to: number }[]): Promise<void> {
    const fromIds = [...new Set(pairs.map((pair) => pair.from))];
    const toIds = [...new Set(pairs.map((pair) => pair.to))];
    const [fromFound, toFound] = await Promise.all([this.reads.read(portalId, fromType, fromIds), this.reads.read(portalId, toType, toIds)]);
    const missingFrom = fromIds.filter((id) => !fromFound.some((doc) => doc.id === id));
    const missingTo = toIds.filter((id) => !toFound.some((doc) => doc.id === id));
    if (missingFrom.length || missingTo.length) {
      throw CrmError.notFound(`Unknown ${[...missingFrom.map((id) => `${fromType} ${id}`), ...missingTo.map((id) => `${toType} ${id}`)].join(', ')}`);
    }
    // Only what is not associated yet is written (an update re-sends its associations every time).
    const single = SINGLE_ASSOCIATIONS.has(`${fromType}->${toType}`);
    const fromById = new Map(fromFound.map((object) => [object.id, object]));
    const toById = new Map(toFound.map((object) => [object.id, object]));
    const operations = [];
    for (const pair of pairs) {
      const from = fromById.get(pair.from)!;
      const to = toById.get(pair.to)!;
      const linked = from.associations?.[toType] ?? [];
      if (single ? !(linked.length === 1 && linked[0] === pair.to) : !linked.includes(pair.to)) {
        operations.push({
          updateOne: {
            filter: { _id: pair.from },
            update: single ? { $set: { [`associations.${toType}`]: [pair.to] } } : { $addToSet: { [`associations.${toType}`]: pair.to } },
          },
        });
        from.associations = { ...from.associations, [toType]: single ? [pair.to] : [...linked, pair.to] };
      }
      const back = to.associations?.[fromType] ?? [];
      if (!back.includes(pair.from)) {
        operations.push({ updateOne: { filter: { _id: pair.to }, update: { $addToSet: { [`associations.${fromType}`]: pair.from } } } });
        to.associations = { ...to.associations, [fromType]: [...back, pair.from] };
      }
    }
    if (operations.length > 0) await this.objects.bulkWrite(operations, { ordered: true });
  }

  /** Removes associations both ways; pairs that are not associated (or name unknown objects) change nothing. */
  async dissociate(portalId: number, fromType: CrmType, toType: CrmType, pairs: { from: number; to: number }[]): Promise<void> {
    const fromIds = [...new Set(pairs.map((pair) => pair.from))];
    const toIds = [...new Set(pairs.map((pair) => pair.to))];
    const [fromFound, toFound] = await Promise.all([this.reads.read(portalId, fromType, fromIds), this.reads.read(portalId, toType, toIds)]);
    const fromIdsFound = new Set(fromFound.map((object) => object.id));
    const toIdsFound = new Set(toFound.map((object) => object.id));
    const operations = pairs
      .filter((pair) => fromIdsFound.has(pair.from) && toIdsFound.has(pair.to))
      .flatMap((pair) => [
        { updateOne: { filter: { _id: pair.from }, update: { $pull: { [`associations.${toType}`]: pair.to } } } },
        { updateOne: { filter: { _id: pair.to }, update: { $pull: { [`associations.${fromType}`]: pair.from } } } },
      ]);
    if (operations.length > 0) await this.objects.bulkWrite(operations, { ordered: true });
  }
}
