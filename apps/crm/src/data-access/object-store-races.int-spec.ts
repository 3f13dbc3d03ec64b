import mongoose, { type Connection } from 'mongoose';
import { testInfrastructure, uniqueName } from '@ecomm-sync/testing';
import { CrmStore } from './crm-store';

const { mongoUrl } = testInfrastructure();

/** The built-in CRM's object writes over the real database, with another request's write put between two steps of one. */
describe('ObjectStore under concurrent writes of one unique value', () => {
  let connection: Connection;
  let store: CrmStore;
  let portalId = 9_300;

  beforeAll(async () => {
    connection = await mongoose.createConnection(mongoUrl, { dbName: uniqueName('crm-object-races').replace(/-/g, '_') }).asPromise();
    store = new CrmStore(connection);
    await store.createIndexes();
  });

  beforeEach(async () => {
    portalId++;
    await store.accounts.ensureAccount(portalId, `token-${portalId}`, 2);
  });

  afterEach(() => jest.restoreAllMocks());

  afterAll(async () => {
    await connection.dropDatabase();
    await connection.close();
  });

  it('when an upsert of a create’s e-mail writes between the create’s claim and its insert, then the create answers the one contact: the upsert’s values, and the create’s where the upsert left them unset', async () => {
    // The store's claims, to put the upsert between the create's two steps.
    const claims = store.objects['claims'];
    const claim = claims.claim.bind(claims);
    jest.spyOn(claims, 'claim').mockImplementationOnce(async (...args) => {
      const release = await claim(...args);
      await store.objects.upsert(portalId, 'contacts', [{ id: 'race@example.com', idProperty: 'email', properties: { firstname: 'Upserted' } }]);
      return release;
    });

    const [created] = await store.objects.create(portalId, 'contacts', [{ properties: { email: 'race@example.com', firstname: 'Created', lastname: 'Kept' } }]);

    expect(created.properties).toMatchObject({ email: 'race@example.com', firstname: 'Upserted', lastname: 'Kept' });
    const found = await store.objects.readByProperty(portalId, 'contacts', 'email', ['race@example.com']);
    expect(found.get('race@example.com')).toMatchObject({ id: created.id, properties: created.properties });
  });
});
