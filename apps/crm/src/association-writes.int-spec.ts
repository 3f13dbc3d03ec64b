import mongoose, { type Connection } from 'mongoose';
import { testInfrastructure, uniqueName } from '@ecomm-sync/testing';
import { AssociationWrites, type Links } from './data-access/association-writes';
import type { ObjectAssociationsDoc } from './data-access/crm-models';

/** The writes one association call plans, against the database server: new documents inserted whole, others updated. */
describe('AssociationWrites', () => {
  const portalId = 5601;
  let connection: Connection;
  const documents = () => connection.collection<ObjectAssociationsDoc>('crm_object_associations');
  const links = (ids: number[], stored: boolean, labels: Links['labels'] = []): Links => ({ ids, labels, stored });
  const read = async (key: string) => documents().findOne({ _id: key }, { projection: { _id: 0 } });

  beforeAll(async () => {
    connection = await mongoose.createConnection(testInfrastructure().mongoUrl, { dbName: uniqueName('association-writes').replace(/-/g, '_') }).asPromise();
  });

  afterAll(async () => {
    await connection?.dropDatabase();
    await connection?.close();
  });

  beforeEach(() => documents().deleteMany({}));

  it('when the documents are new, then each is inserted once with everything the call planned for it', async () => {
    const writes = new AssociationWrites(portalId);
    const deal = links([], false);
    deal.ids = [11];
    writes.change('1:contacts', deal, { $addToSet: { ids: 11 } }, false);
    deal.ids = [11, 12];
    deal.labels = [{ id: 12, typeId: 7 }];
    writes.change('1:contacts', deal, { $addToSet: { ids: 12, labels: { $each: deal.labels } } }, false);
    writes.change('11:deals', links([1], false), { $addToSet: { ids: 1 } }, false);

    await writes.execute(documents());

    expect(await read('1:contacts')).toEqual({ portalId, ids: [11, 12], labels: [{ id: 12, typeId: 7 }] });
    expect(await read('11:deals')).toEqual({ portalId, ids: [1] });
  });

  it('when a document was there, then the planned updates apply to it in order', async () => {
    await documents().insertOne({ _id: '2:contacts', portalId, ids: [21] });
    const writes = new AssociationWrites(portalId);
    writes.change('2:contacts', links([21, 22], true), { $addToSet: { ids: 22 } }, false);
    writes.pull('2:contacts', undefined, 21);

    await writes.execute(documents());

    expect(await read('2:contacts')).toEqual({ portalId, ids: [22] });
  });

  it('when another writer inserted a new document first, then ours adds what it planned to that one and the others are inserted', async () => {
    const writes = new AssociationWrites(portalId);
    writes.change('3:deals', links([31], false), { $addToSet: { ids: 31 } }, false);
    writes.change('4:deals', links([41], false, [{ id: 41, typeId: 5 }]), { $addToSet: { ids: 41 } }, false);
    writes.change('5:deals', links([51], false), { $addToSet: { ids: 51 } }, false);
    await documents().insertOne({ _id: '4:deals', portalId, ids: [40], labels: [{ id: 40, typeId: 5 }] });

    await writes.execute(documents());

    expect(await read('3:deals')).toEqual({ portalId, ids: [31] });
    expect(await read('4:deals')).toEqual({
      portalId,
      ids: [40, 41],
      labels: [
        { id: 40, typeId: 5 },
        { id: 41, typeId: 5 },
      ],
    });
    expect(await read('5:deals')).toEqual({ portalId, ids: [51] });
  });

  it('when another writer inserted first an object’s single association, then ours replaces its id, keeping only the labels of ours', async () => {
    const writes = new AssociationWrites(portalId);
    writes.change('6:deals', links([62], false, [{ id: 62, typeId: 3 }]), { $set: { ids: [62] } }, true);
    await documents().insertOne({
      _id: '6:deals',
      portalId,
      ids: [61],
      labels: [
        { id: 61, typeId: 3 },
        { id: 62, typeId: 9 },
      ],
    });

    await writes.execute(documents());

    expect(await read('6:deals')).toEqual({
      portalId,
      ids: [62],
      labels: [
        { id: 62, typeId: 9 },
        { id: 62, typeId: 3 },
      ],
    });
  });

  it('when the call takes an object off a document it creates, then the document is inserted without it', async () => {
    const writes = new AssociationWrites(portalId);
    const firstDeal = links([], false);
    firstDeal.ids = [7];
    writes.change('71:line_items', firstDeal, { $addToSet: { ids: 7 } }, false);
    writes.pull('71:line_items', firstDeal, 7);

    await writes.execute(documents());

    expect(await read('71:line_items')).toEqual({ portalId, ids: [] });
  });

  it('when another writer inserted first a document the call took an object off, then that object is taken off it too', async () => {
    const writes = new AssociationWrites(portalId);
    const firstDeal = links([], false);
    firstDeal.ids = [8, 9];
    writes.change('81:line_items', firstDeal, { $addToSet: { ids: 8 } }, false);
    writes.pull('81:line_items', firstDeal, 8);
    await documents().insertOne({ _id: '81:line_items', portalId, ids: [8, 10], labels: [{ id: 8, typeId: 1 }] });

    await writes.execute(documents());

    expect(await read('81:line_items')).toEqual({ portalId, ids: [10, 9], labels: [] });
  });
});
