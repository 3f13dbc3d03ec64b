import type { Connection } from 'mongoose';
import request from 'supertest';
import { openTestCrmApp, type TestCrmApp } from './crm-server-fixture';
import { uniqueValueKey } from './data-access/unique-values';
import { CLAIM_GRACE_MS } from './domain/unique-claim-state';

/**
 * A writer of the built-in CRM that dies between its steps (claim, write, release) leaves a unique
 * value's claim whose owner does not hold the value. These tests leave such claims in the database
 * the way a crash would, then show that the next writer of the value takes them over once they are
 * older than the grace, and not before.
 */
describe('built-in CRM unique-value claims left behind by a dead writer, and the upsert over them', () => {
  let crm: TestCrmApp | undefined;
  let connection: Connection;
  let app: TestCrmApp['app'];
  let token: string;
  let portalId = 7_100;

  beforeAll(async () => {
    crm = await openTestCrmApp('crm-claims');
    ({ connection, app } = crm);
  });

  beforeEach(async () => {
    portalId++;
    token = `token-of-portal-${portalId}`;
    await request(app).put(`/crm/admin/v1/accounts/${portalId}`).set('authorization', 'Bearer admin-token').send({ token }).expect(200);
  });

  afterAll(() => crm?.close());

  const as = (method: 'get' | 'post' | 'patch', path: string) => request(app)[method](path).set('authorization', `Bearer ${token}`);
  const claims = () => connection.collection('crm_unique_values');
  const objects = () => connection.collection<{ _id: number }>('crm_objects');
  const longAgo = () => new Date(Date.now() - 2 * CLAIM_GRACE_MS);
  const emailKey = (email: string) => uniqueValueKey(portalId, 'contacts', 'email', email);
  /** A claim as a writer left it (the one whose object it never wrote, or one it no longer holds). */
  const leaveClaim = (email: string, objectId: number, claimedAt: Date) =>
    claims().insertOne({ _id: emailKey(email) as never, portalId, objectType: 'contacts', property: 'email', value: email.toLowerCase(), objectId, claimedAt });
  /** An update of the contact to `email` that wrote the object and the new claim, and died before releasing the old e-mail. */
  const updateDiedBeforeRelease = async (id: string, email: string) => {
    await objects().updateOne({ _id: Number(id) }, { $set: { 'properties.email': email } });
    await leaveClaim(email, Number(id), new Date());
  };
  const ageClaim = (email: string) => claims().updateOne({ _id: emailKey(email) as never }, { $set: { claimedAt: longAgo() } });
  const createContact = (email: string) => as('post', '/crm/v3/objects/contacts/batch/create').send({ inputs: [{ properties: { email } }] });
  const upsertContact = (email: string) =>
    as('post', '/crm/v3/objects/contacts/batch/upsert')
      .send({ inputs: [{ id: email, idProperty: 'email', properties: { firstname: 'Next' } }] })
      .expect(200);
  const contactsByEmail = async (email: string) =>
    (
      await as('post', '/crm/v3/objects/contacts/search')
        .send({ filterGroups: [{ filters: [{ propertyName: 'email', operator: 'EQ', value: email }] }] })
        .expect(200)
    ).body.results.map((result: { id: string }) => result.id);

  it('when a create died between its claim and its insert, then after the grace another create takes the e-mail', async () => {
    await leaveClaim('gone@example.com', 987_654_321, longAgo());
    const created = await createContact('Gone@Example.com').expect(201);
    expect(await contactsByEmail('gone@example.com')).toEqual([created.body.results[0].id]);
  });

  it('when the claim is younger than the grace, then it is left to its writer and a create is told 409 naming it', async () => {
    await leaveClaim('busy@example.com', 987_654_322, new Date());
    const refused = await createContact('busy@example.com').expect(409);
    expect(refused.body.message).toBe('Contact already exists. Existing ID: 987654322');
  });

  it('when a claim predates claims carrying a date and its owner holds the value, then it is held and a create is told 409', async () => {
    const first = (await createContact('kept@example.com').expect(201)).body.results[0].id;
    await claims().updateOne({ _id: emailKey('kept@example.com') as never }, { $unset: { claimedAt: '' } });
    const refused = await createContact('KEPT@example.com').expect(409);
    expect(refused.body.message).toBe(`Contact already exists. Existing ID: ${first}`);
  });

  it('when an update died between its write and its release, then an upsert of the old e-mail makes a new contact and the first keeps its new one', async () => {
    const first = (await createContact('old@example.com').expect(201)).body.results[0].id;
    // The update wrote the new e-mail and its claim, and died before releasing the old one.
    await updateDiedBeforeRelease(first, 'new@example.com');
    await ageClaim('old@example.com');

    const upserted = (await upsertContact('old@example.com')).body.results[0];
    expect(upserted).toMatchObject({ new: true, properties: expect.objectContaining({ email: 'old@example.com', firstname: 'Next' }) });
    expect(upserted.id).not.toBe(first);
    const firstNow = await as('get', `/crm/v3/objects/contacts/${first}?properties=email,firstname`).expect(200);
    expect(firstNow.body.properties).toEqual({ email: 'new@example.com', firstname: null });
  });

  it('when an archive died before its release, then an upsert of the e-mail makes a new contact and the archived one stays archived', async () => {
    const first = (await createContact('left@example.com').expect(201)).body.results[0].id;
    await objects().updateOne({ _id: Number(first) }, { $set: { archived: true } });
    await ageClaim('left@example.com');

    const upserted = (await upsertContact('left@example.com')).body.results[0];
    expect(upserted.new).toBe(true);
    expect(upserted.id).not.toBe(first);
    await as('get', `/crm/v3/objects/contacts/${first}`).expect(404);
    expect(await contactsByEmail('left@example.com')).toEqual([upserted.id]);
  });

  it('when an upsert died between its claim and its object, then the next upsert makes the contact', async () => {
    await leaveClaim('never@example.com', 987_654_323, longAgo());
    const upserted = (await upsertContact('never@example.com')).body.results[0];
    expect(upserted).toMatchObject({ new: true, properties: expect.objectContaining({ email: 'never@example.com' }) });
    expect(await contactsByEmail('never@example.com')).toEqual([upserted.id]);
  });

  it('when a live contact holds its e-mail under an old claim, then an upsert updates it', async () => {
    const first = (await createContact('held@example.com').expect(201)).body.results[0].id;
    await ageClaim('held@example.com');
    const upserted = (await upsertContact('held@example.com')).body.results[0];
    expect(upserted).toMatchObject({ id: first, new: false, properties: expect.objectContaining({ email: 'held@example.com', firstname: 'Next' }) });
  });

  it('when two creates take over one claim left behind at once, then one makes the contact and the other is told 409', async () => {
    await leaveClaim('raced@example.com', 987_654_324, longAgo());
    const answers = await Promise.all([createContact('raced@example.com'), createContact('RACED@example.com')]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([201, 409]);
    const winner = answers.find((answer) => answer.status === 201)!.body.results[0].id;
    expect(await contactsByEmail('raced@example.com')).toEqual([winner]);
  });
  it('when a batch update moves a contact onto an e-mail an archived contact left behind, then it takes the e-mail', async () => {
    const archived = (await createContact('moved@example.com').expect(201)).body.results[0].id;
    await objects().updateOne({ _id: Number(archived) }, { $set: { archived: true } });
    await ageClaim('moved@example.com');
    const other = (await createContact('other@example.com').expect(201)).body.results[0].id;

    await as('post', '/crm/v3/objects/contacts/batch/update')
      .send({ inputs: [{ id: other, properties: { email: 'Moved@example.com' } }] })
      .expect(200);
    expect(await contactsByEmail('moved@example.com')).toEqual([other]);
    expect(await createContact('other@example.com').expect(201)).toBeTruthy();
  });

  it('when a contact goes back to an e-mail whose old claim is still its own, then it keeps the claim, renewed', async () => {
    const first = (await createContact('back@example.com').expect(201)).body.results[0].id;
    // An update to away@ wrote and died before releasing back@.
    await updateDiedBeforeRelease(first, 'away@example.com');
    await ageClaim('back@example.com');
    const updatedFrom = Date.now();

    await as('post', '/crm/v3/objects/contacts/batch/update')
      .send({ inputs: [{ id: first, properties: { email: 'back@example.com' } }] })
      .expect(200);
    const claim = await claims().findOne({ _id: emailKey('back@example.com') as never });
    expect(claim).toMatchObject({ objectId: Number(first) });
    // Renewed by the update (the app runs in this process, on this clock), not left at its old date.
    expect((claim!.claimedAt as Date).getTime()).toBeGreaterThanOrEqual(updatedFrom);
    expect(await contactsByEmail('back@example.com')).toEqual([first]);
  });

  it('when two upserts find one claim left behind at once, or one names it in two cases, then one new contact holds the e-mail', async () => {
    await leaveClaim('twice@example.com', 987_654_325, longAgo());
    const upsert = (inputs: string[]) =>
      as('post', '/crm/v3/objects/contacts/batch/upsert')
        .send({ inputs: inputs.map((id) => ({ id, idProperty: 'email', properties: {} })) })
        .expect(200);
    const answers = await Promise.all([upsert(['twice@example.com', 'TWICE@example.com']), upsert(['Twice@Example.com'])]);
    const ids = new Set(answers.flatMap((answer) => answer.body.results.map((result: { id: string }) => result.id)));
    expect(ids.size).toBe(1);
    expect([...ids][0]).not.toBe('987654325');
    expect(await contactsByEmail('twice@example.com')).toEqual([...ids]);
  });

  it('when a unique property other than e-mail has a claim left behind, then a create takes it; a young one refuses the create naming its owner', async () => {
    await as('post', '/crm/v3/properties/products')
      .send({ name: 'sku_key', label: 'SKU', type: 'string', fieldType: 'text', groupName: 'productinformation', hasUniqueValue: true })
      .expect(201);
    const leave = (value: string, objectId: number, claimedAt: Date) =>
      claims().insertOne({
        _id: uniqueValueKey(portalId, 'products', 'sku_key', value) as never,
        portalId,
        objectType: 'products',
        property: 'sku_key',
        value,
        objectId,
        claimedAt,
      });
    const create = (value: string) =>
      as('post', '/crm/v3/objects/products/batch/create').send({ inputs: [{ properties: { name: 'Widget', sku_key: value } }] });
    await leave('SKU-OLD', 987_654_326, longAgo());
    await leave('SKU-NEW', 987_654_327, new Date());

    await create('SKU-OLD').expect(201);
    const refused = await create('SKU-NEW').expect(409);
    expect(refused.body.message).toBe('sku_key "SKU-NEW" is already taken by object 987654327; use batch/upsert to update by it');
  });

  it('when an upsert names one existing contact twice, then it answers the contact once, as stored, with both inputs written', async () => {
    const first = (await createContact('pair@example.com').expect(201)).body.results[0].id;
    const answer = await as('post', '/crm/v3/objects/contacts/batch/upsert')
      .send({
        inputs: [
          { id: 'PAIR@example.com', idProperty: 'email', properties: { firstname: 'One' } },
          { id: 'pair@example.com', idProperty: 'email', properties: { lastname: 'Two' } },
        ],
      })
      .expect(200);
    expect(answer.body.results).toHaveLength(1);
    const stored = await as('get', `/crm/v3/objects/contacts/${first}?properties=email,firstname,lastname`).expect(200);
    expect(stored.body.properties).toEqual({ email: 'pair@example.com', firstname: 'One', lastname: 'Two' });
    expect(answer.body.results[0]).toMatchObject({
      id: first,
      new: false,
      properties: expect.objectContaining(stored.body.properties),
      updatedAt: stored.body.updatedAt,
    });
  });
  it('when an upsert is refused for an e-mail another contact holds, then it leaves no claim of its own behind', async () => {
    await as('post', '/crm/v3/properties/contacts')
      .send({ name: 'sync_key', label: 'Sync key', type: 'string', fieldType: 'text', groupName: 'contactinformation', hasUniqueValue: true })
      .expect(201);
    const holder = (await createContact('taken@example.com').expect(201)).body.results[0].id;
    const refused = await as('post', '/crm/v3/objects/contacts/batch/upsert')
      .send({ inputs: [{ id: 'key-1', idProperty: 'sync_key', properties: { email: 'taken@example.com' } }] })
      .expect(409);
    expect(refused.body.message).toBe(`Contact already exists. Existing ID: ${holder}`);
    expect(await claims().findOne({ _id: uniqueValueKey(portalId, 'contacts', 'sync_key', 'key-1') as never })).toBeNull();
  });
});
