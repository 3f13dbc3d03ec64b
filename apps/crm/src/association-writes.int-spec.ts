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

  it('when another writer inserted a new document first, then ours adds what it planned to that one', async () => {
    const writes = new AssociationWrites(portalId);
    writes.change('3:deals', links([31], false), { $addToSet: { ids: 31 } }, false);
    writes.change('4:deals', links([41], false), { $addToSet: { ids: 41 } }, false);
    await documents().insertOne({ _id: '3:deals', portalId, ids: [30] });

    await writes.execute(documents());

    expect(await read('3:deals')).toEqual({ portalId, ids: [30, 31] });
    expect(await read('4:deals')).toEqual({ portalId, ids: [41] });
  });

  it('when another writer inserted first an object’s single association, then ours replaces it', async () => {
    const writes = new AssociationWrites(portalId);
    writes.change('5:deals', links([52], false), { $set: { ids: [52] } }, true);
    await documents().insertOne({ _id: '5:deals', portalId, ids: [51], labels: [{ id: 51, typeId: 3 }] });

    await writes.execute(documents());

    expect(await read('5:deals')).toEqual({ portalId, ids: [52], labels: [] });
  });

  it('when the call takes an object off a document it creates, then the document is inserted without it and nothing else is sent', async () => {
    const writes = new AssociationWrites(portalId);
    const firstDeal = links([], false);
    firstDeal.ids = [6];
    writes.change('61:line_items', firstDeal, { $addToSet: { ids: 6 } }, false);
    writes.pull('61:line_items', firstDeal, 6);

    await writes.execute(documents());

    expect(await read('61:line_items')).toEqual({ portalId, ids: [] });
    expect(await documents().countDocuments()).toBe(1);
  });
});
