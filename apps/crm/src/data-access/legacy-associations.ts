import type { mongo } from 'mongoose';
import { driverCollection } from '@ecomm-sync/data-access';
import { associationsKey, type AssociationLabelRef, type CrmModels, type ObjectAssociationsDoc } from './crm-models';

/** How many objects one round moves. */
const ROUND = 500;

/** An object as stored before decision 56, with its associations on it. */
interface LegacyObjectDoc {
  _id: number;
  portalId: number;
  associations?: Record<string, number[]>;
  associationLabels?: Record<string, AssociationLabelRef[]>;
}

const LEGACY = { $or: [{ associations: { $exists: true } }, { associationLabels: { $exists: true } }] };

/**
 * Moves the associations objects held on their own documents before decision 56 into
 * crm_object_associations, at the CRM's start; returns how many objects held some. Each round
 * adds an object's associations to its new documents (`$addToSet`: a round run twice adds nothing
 * twice) before it takes them off the object, so a start that stops halfway loses nothing.
 */
export async function moveLegacyAssociations(models: CrmModels): Promise<number> {
  const objects = driverCollection<LegacyObjectDoc>(models.objects);
  const links = driverCollection<ObjectAssociationsDoc>(models.objectAssociations);
  let moved = 0;
  for (;;) {
    const docs = await objects
      .find(LEGACY, { projection: { portalId: 1, associations: 1, associationLabels: 1 } })
      .limit(ROUND)
      .toArray();
    if (docs.length === 0) return moved;
    const writes = docs.flatMap(linkWrites);
    if (writes.length > 0) await links.bulkWrite(writes, { ordered: true });
    moved += docs.filter((doc) => linkWrites(doc).length > 0).length;
    await objects.updateMany({ _id: { $in: docs.map((doc) => doc._id) } }, { $unset: { associations: '', associationLabels: '' } });
  }
}

/** The upserts that give one object's associations, type by type, to their own documents. */
function linkWrites(doc: LegacyObjectDoc): mongo.AnyBulkWriteOperation<ObjectAssociationsDoc>[] {
  const types = new Set([...Object.keys(doc.associations ?? {}), ...Object.keys(doc.associationLabels ?? {})]);
  return [...types].flatMap((type) => {
    const ids = doc.associations?.[type] ?? [];
    const labels = doc.associationLabels?.[type] ?? [];
    if (ids.length === 0 && labels.length === 0) return [];
    return [
      {
        updateOne: {
          filter: { _id: associationsKey(doc._id, type) },
          update: { $setOnInsert: { portalId: doc.portalId }, $addToSet: { ids: { $each: ids }, labels: { $each: labels } } },
          upsert: true,
        },
      },
    ];
  });
}
