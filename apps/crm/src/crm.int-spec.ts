import request from 'supertest';
import { openTestCrmApp, type TestCrmApp } from './crm-server-fixture';

describe('built-in CRM objects API', () => {
  let crm: TestCrmApp | undefined;
  let app: TestCrmApp['app'];
  let token: string;
  let portalId = 500;

  beforeAll(async () => {
    crm = await openTestCrmApp('crm');
    app = crm.app;
  });

  beforeEach(async () => {
    portalId++;
    token = `token-of-portal-${portalId}`;
    await request(app).put(`/crm/admin/v1/accounts/${portalId}`).set('authorization', 'Bearer admin-token').send({ token }).expect(200);
  });

  afterAll(() => crm?.close());

  const as = (method: 'get' | 'post' | 'patch' | 'delete', path: string) => request(app)[method](path).set('authorization', `Bearer ${token}`);

  it.each([
    ['a new account', 30_000],
    ['an existing account', 31_000],
  ])('when %s is given the token another account has, then 409 says so and the token still opens only its own account', async (_case, offset) => {
    const other = portalId + offset;
    if (offset === 31_000)
      await request(app)
        .put(`/crm/admin/v1/accounts/${other}`)
        .set('authorization', 'Bearer admin-token')
        .send({ token: `token-of-portal-${other}` })
        .expect(200);

    const answer = await request(app).put(`/crm/admin/v1/accounts/${other}`).set('authorization', 'Bearer admin-token').send({ token }).expect(409);

    expect(answer.body).toMatchObject({ status: 'error', message: 'token is already used by another account: give each account a token of its own' });
    const created = await as('post', '/crm/v3/objects/contacts/batch/create')
      .send({ inputs: [{ properties: { email: `own-${portalId}@example.com` } }] })
      .expect(201);
    await as('get', `/crm/v3/objects/contacts/${created.body.results[0].id}`).expect(200);
  });

  it('starts a portal with the default properties and pipeline', async () => {
    const contacts = await as('get', '/crm/v3/properties/contacts').expect(200);
    expect(contacts.body.results.map((p: { name: string }) => p.name)).toEqual(
      expect.arrayContaining(['email', 'firstname', 'lastname', 'phone', 'mobilephone', 'company', 'website', 'address', 'city', 'state', 'zip', 'country']),
    );
    const lineItems = await as('get', '/crm/v3/properties/line_items').expect(200);
    expect(lineItems.body.results.map((p: { name: string }) => p.name).sort()).toEqual([
      'amount',
      'discount',
      'hs_product_id',
      'name',
      'price',
      'quantity',
      'tax',
    ]);
    const pipelines = await as('get', '/crm/v3/pipelines/deals').expect(200);
    expect(pipelines.body.results).toHaveLength(1);
  });

  it.each([
    [
      'a property in another portal',
      '/crm/v3/properties/contacts',
      { name: 'x_planted', label: 'x', type: 'string', fieldType: 'text', groupName: 'contactinformation', portalId: 1 },
    ],
    ['an object input with an extra field', '/crm/v3/objects/contacts/batch/create', { inputs: [{ properties: { email: 'x@example.com' }, portalId: 1 }] }],
    ['a search with an unknown field', '/crm/v3/objects/contacts/search', { filterGroups: [], query: 'x' }],
    [
      'a pipeline with a stage id (the CRM makes them)',
      '/crm/v3/pipelines/deals',
      { label: 'P', displayOrder: 1, stages: [{ id: 's', label: 'S', displayOrder: 0, metadata: { probability: '1.0' } }] },
    ],
  ])('when a body carries a field the API does not define (%s), then it is refused with 400 naming it and nothing is written', async (_case, path, body) => {
    const other = portalId + 1000;
    await request(app)
      .put(`/crm/admin/v1/accounts/${other}`)
      .set('authorization', 'Bearer admin-token')
      .send({ token: `token-of-portal-${other}` })
      .expect(200);
    const response = await as('post', path).send(body).expect(400);
    expect(response.body).toMatchObject({ status: 'error', message: expect.stringMatching(/must NOT have additional properties|not allowed|unknown/i) });
    const planted = await request(app).get('/crm/v3/properties/contacts').set('authorization', `Bearer token-of-portal-${other}`).expect(200);
    expect(planted.body.results.map((p: { name: string }) => p.name)).not.toContain('x_planted');
    expect((await as('get', '/crm/v3/properties/contacts').expect(200)).body.results.map((p: { name: string }) => p.name)).not.toContain('x_planted');
  });

  it('when a read names an association type or property like an Object.prototype member, then the answer is 200 with nothing there, not 500', async () => {
    const created = await as('post', '/crm/v3/objects/contacts/batch/create')
      .send({ inputs: [{ properties: { email: 'proto@example.com' } }] })
      .expect(201);
    const read = await as(
      'get',
      `/crm/v3/objects/contacts/${created.body.results[0].id}?associations=constructor,toString&properties=constructor,__proto__`,
    ).expect(200);
    expect(read.body.associations).toEqual({ constructor: { results: [] }, toString: { results: [] } });
    expect(Object.getOwnPropertyDescriptor(read.body.properties, 'constructor')?.value).toBeNull();
  });

  it.each(['$where', 'a.$b', 'email.x'])('when a search filters on the property name "%s", then the answer is 400 naming it', async (propertyName) => {
    const response = await as('post', '/crm/v3/objects/contacts/search')
      .send({ filterGroups: [{ filters: [{ propertyName, operator: 'EQ', value: 'x' }] }] })
      .expect(400);
    expect(response.body.message).toMatch(/propertyName must be a property name/);
  });

  it('creates, reads, updates and archives objects', async () => {
    const created = await as('post', '/crm/v3/objects/contacts/batch/create')
      .send({ inputs: [{ properties: { email: 'Ada@Example.com', firstname: 'Ada' } }] })
      .expect(201);
    const id = created.body.results[0].id;
    await as('post', '/crm/v3/objects/contacts/batch/update')
      .send({ inputs: [{ id, properties: { lastname: 'Lovelace' } }] })
      .expect(200);
    const read = await as('get', `/crm/v3/objects/contacts/${id}?properties=firstname,lastname`).expect(200);
    expect(read.body.properties).toEqual({ firstname: 'Ada', lastname: 'Lovelace' });
    const found = await as('post', '/crm/v3/objects/contacts/search')
      .send({ filterGroups: [{ filters: [{ propertyName: 'email', operator: 'IN', values: ['ada@example.com'] }] }] })
      .expect(200);
    expect(found.body.results.map((r: { id: string }) => r.id)).toEqual([id]);
    await as('post', '/crm/v3/objects/contacts/batch/archive')
      .send({ inputs: [{ id }] })
      .expect(204);
    await as('get', `/crm/v3/objects/contacts/${id}`).expect(404);
  });

  it('when a contact changes its e-mail, then search finds it by the new one only, without case, with the other filters, and another contact may take the old one', async () => {
    const search = async (filters: object[]) =>
      (
        await as('post', '/crm/v3/objects/contacts/search')
          .send({ filterGroups: [{ filters }] })
          .expect(200)
      ).body.results.map((r: { id: string }) => r.id);
    const created = await as('post', '/crm/v3/objects/contacts/batch/create')
      .send({ inputs: [{ properties: { email: 'old@example.com', firstname: 'A' } }, { properties: { email: 'other@example.com', firstname: 'B' } }] })
      .expect(201);
    const [first, second] = created.body.results.map((r: { id: string }) => r.id);
    const taken = await as('post', '/crm/v3/objects/contacts/batch/update')
      .send({ inputs: [{ id: second, properties: { email: 'OLD@example.com' } }] })
      .expect(409);
    expect(taken.body).toMatchObject({ category: 'CONFLICT', message: `Contact already exists. Existing ID: ${first}` });
    await as('post', '/crm/v3/objects/contacts/batch/update')
      .send({ inputs: [{ id: first, properties: { email: 'New@Example.com' } }] })
      .expect(200);
    await as('post', '/crm/v3/objects/contacts/batch/update')
      .send({ inputs: [{ id: second, properties: { email: 'OLD@example.com' } }] })
      .expect(200);

    expect(await search([{ propertyName: 'email', operator: 'IN', values: ['old@example.com'] }])).toEqual([second]);
    expect(await search([{ propertyName: 'email', operator: 'EQ', value: 'new@example.COM' }])).toEqual([first]);
    expect(
      await search([
        { propertyName: 'email', operator: 'IN', values: ['old@example.com', 'new@example.com'] },
        { propertyName: 'firstname', operator: 'EQ', value: 'A' },
      ]),
    ).toEqual([first]);
    await as('post', '/crm/v3/objects/contacts/batch/archive')
      .send({ inputs: [{ id: second }] })
      .expect(204);
    expect(await search([{ propertyName: 'email', operator: 'IN', values: ['old@example.com'] }])).toEqual([]);
  });

  it('when contacts are read by e-mail, then they are found without case and the missing ones are named in a 207', async () => {
    const created = await as('post', '/crm/v3/objects/contacts/batch/create')
      .send({ inputs: [{ properties: { email: 'Read@Example.com' } }, { properties: { email: 'gone@example.com' } }] })
      .expect(201);
    const [id, gone] = created.body.results.map((r: { id: string }) => r.id);
    await as('post', '/crm/v3/objects/contacts/batch/archive')
      .send({ inputs: [{ id: gone }] })
      .expect(204);
    const read = (ids: string[]) =>
      as('post', '/crm/v3/objects/contacts/batch/read').send({ idProperty: 'email', inputs: ids.map((value) => ({ id: value })), properties: ['email'] });

    const all = await read(['read@EXAMPLE.com']).expect(200);
    expect(all.body).toEqual({
      status: 'COMPLETE',
      results: [expect.objectContaining({ id, properties: { email: 'Read@Example.com' } })],
      startedAt: expect.any(String),
      completedAt: expect.any(String),
    });
    const some = await read(['read@example.com', 'gone@example.com', 'never@example.com']).expect(207);
    expect(some.body.results.map((r: { id: string }) => r.id)).toEqual([id]);
    expect(some.body.errors).toEqual([expect.objectContaining({ category: 'OBJECT_NOT_FOUND', context: { ids: ['gone@example.com', 'never@example.com'] } })]);
  });

  it('when objects are read by a property without unique values, or by a non-numeric id without idProperty, then the answer is a 400 saying so', async () => {
    const byName = await as('post', '/crm/v3/objects/products/batch/read')
      .send({ idProperty: 'name', inputs: [{ id: 'x' }] })
      .expect(400);
    expect(byName.body.message).toMatch(/idProperty "name" is not a property with unique values/);
    const byText = await as('post', '/crm/v3/objects/products/batch/read')
      .send({ inputs: [{ id: 'abc' }] })
      .expect(400);
    expect(byText.body.message).toMatch(/inputs\[0\]\.id "abc" is not an object id; to read by another property, name it in idProperty/);
  });

  it('when objects are read by a property with unique values, then the owner of each value is found', async () => {
    await as('post', '/crm/v3/properties/products')
      .send({ name: 'sku_key', label: 'SKU', type: 'string', fieldType: 'text', groupName: 'productinformation', hasUniqueValue: true })
      .expect(201);
    const written = await as('post', '/crm/v3/objects/products/batch/upsert')
      .send({ inputs: [{ id: 'sku-1', idProperty: 'sku_key', properties: { name: 'One' } }] })
      .expect(200);
    const read = await as('post', '/crm/v3/objects/products/batch/read')
      .send({ idProperty: 'sku_key', inputs: [{ id: 'sku-1' }, { id: 'sku-2' }], properties: ['name'] })
      .expect(207);
    expect(read.body.results).toEqual([expect.objectContaining({ id: written.body.results[0].id, properties: { name: 'One' } })]);
    expect(read.body.errors[0].context).toEqual({ ids: ['sku-2'] });
  });

  it('when an update holds what the object already has, then nothing is written; a change is', async () => {
    const created = await as('post', '/crm/v3/objects/products/batch/create')
      .send({ inputs: [{ properties: { name: 'Same', price: '5' } }] })
      .expect(201);
    const { id, updatedAt } = created.body.results[0];
    while (Date.now() <= Date.parse(updatedAt)) await new Promise(setImmediate); // any write from now on has a later time
    const same = await as('post', '/crm/v3/objects/products/batch/update')
      .send({ inputs: [{ id, properties: { name: 'Same', price: 5 } }] })
      .expect(200);
    expect(same.body.results[0].updatedAt).toBe(updatedAt);
    // Two updates of one object go in two requests: the hosted CRM refuses a batch naming it twice.
    await as('post', '/crm/v3/objects/products/batch/update')
      .send({ inputs: [{ id, properties: { name: 'Same', price: '6' } }] })
      .expect(200);
    const changed = await as('post', '/crm/v3/objects/products/batch/update')
      .send({ inputs: [{ id, properties: { name: 'Other' } }] })
      .expect(200);
    expect(changed.body.results).toEqual([expect.objectContaining({ id, properties: expect.objectContaining({ name: 'Other', price: '6' }) })]);
    expect(changed.body.results[0].updatedAt > updatedAt).toBe(true);
    const read = await as('get', `/crm/v3/objects/products/${id}?properties=name,price`).expect(200);
    expect(read.body.properties).toEqual({ name: 'Other', price: '6' });
  });

  it('when one upsert names the same new object twice, then it is refused whole, as the hosted CRM refuses it, and nothing is made', async () => {
    await as('post', '/crm/v3/properties/contacts')
      .send({ name: 'sync_key', label: 'Sync key', type: 'string', fieldType: 'text', groupName: 'contactinformation', hasUniqueValue: true })
      .expect(201);
    const refused = await as('post', '/crm/v3/objects/contacts/batch/upsert')
      .send({
        inputs: [
          { id: 'twice', idProperty: 'sync_key', properties: { email: 'twice@example.com', firstname: 'First' } },
          { id: 'twice', idProperty: 'sync_key', properties: { firstname: 'Second' } },
        ],
      })
      .expect(400);
    expect(refused.body).toMatchObject({ category: 'VALIDATION_ERROR', context: { ids: ['twice'] } });
    const found = await as('post', '/crm/v3/objects/contacts/search')
      .send({ filterGroups: [{ filters: [{ propertyName: 'email', operator: 'EQ', value: 'twice@example.com' }] }] })
      .expect(200);
    expect(found.body.results).toEqual([]);
  });

  it("when a portal names another portal's object by id, then nothing of it is written", async () => {
    const theirs = (
      await as('post', '/crm/v3/objects/deals/batch/create')
        .send({ inputs: [{ properties: { dealname: 'Theirs' } }] })
        .expect(201)
    ).body.results[0].id;
    const owner = token;
    token = `intruder-token-of-portal-${portalId}`;
    await request(app)
      .put(`/crm/admin/v1/accounts/${portalId + 20_000}`)
      .set('authorization', 'Bearer admin-token')
      .send({ token })
      .expect(200);

    await as('post', '/crm/v3/objects/deals/batch/update')
      .send({ inputs: [{ id: theirs, properties: { dealname: 'Changed' } }] })
      .expect(404);
    await as('post', '/crm/v3/objects/deals/batch/archive')
      .send({ inputs: [{ id: theirs }] })
      .expect(204);

    token = owner;
    const read = await as('get', `/crm/v3/objects/deals/${theirs}?properties=dealname`).expect(200);
    expect(read.body.properties).toEqual({ dealname: 'Theirs' });
  });

  it('when many creates of different types run at once, then every object gets its own id', async () => {
    const types = ['contacts', 'deals', 'products', 'line_items'];
    const created = await Promise.all(
      Array.from({ length: 24 }, (_, i) =>
        as('post', `/crm/v3/objects/${types[i % 4]}/batch/create`)
          .send({ inputs: Array.from({ length: 50 }, () => ({ properties: {} })) })
          .expect(201),
      ),
    );
    const ids = created.flatMap((response) => response.body.results.map((r: { id: string }) => r.id));
    expect(ids).toHaveLength(24 * 50);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('refuses to write a property the portal does not define, and a value that does not fit its type', async () => {
    const undefinedProperty = await as('post', '/crm/v3/objects/contacts/batch/create')
      .send({ inputs: [{ properties: { shoe_size: '38' } }] })
      .expect(400);
    expect(undefinedProperty.body.message).toMatch(/Property "shoe_size" does not exist on contacts/);
    expect(undefinedProperty.body).toMatchObject({
      category: 'VALIDATION_ERROR',
      errors: [{ code: 'PROPERTY_DOESNT_EXIST', in: 'shoe_size', context: { propertyName: ['shoe_size'] } }],
      context: { propertyName: ['shoe_size'] },
    });
    const wrongType = await as('post', '/crm/v3/objects/deals/batch/create')
      .send({ inputs: [{ properties: { amount: 'lots' } }] })
      .expect(400);
    expect(wrongType.body.message).toMatch(/INVALID_NUMBER/);
    expect(wrongType.body.errors).toEqual([expect.objectContaining({ code: 'INVALID_NUMBER', in: 'amount' })]);
  });

  it('when an update or upsert batch names one record twice, then it is refused whole, as the hosted CRM refuses it', async () => {
    const [made] = (
      await as('post', '/crm/v3/objects/contacts/batch/create')
        .send({ inputs: [{ properties: { email: 'duplicate@example.com' } }] })
        .expect(201)
    ).body.results;
    const update = await as('post', '/crm/v3/objects/contacts/batch/update')
      .send({
        inputs: [
          { id: made.id, properties: { firstname: 'A' } },
          { id: made.id, properties: { firstname: 'B' } },
        ],
      })
      .expect(400);
    expect(update.body).toMatchObject({
      message: `Duplicate IDs found in batch input: [${made.id}]. IDs must be unique`,
      category: 'VALIDATION_ERROR',
      context: { ids: [made.id] },
    });
    const upsert = await as('post', '/crm/v3/objects/contacts/batch/upsert')
      .send({ inputs: ['A', 'B'].map((firstname) => ({ id: 'duplicate@example.com', idProperty: 'email', properties: { firstname } })) })
      .expect(400);
    expect(upsert.body.message).toBe('Duplicate IDs found in batch input: [duplicate@example.com]. IDs must be unique');
  });

  it('when ten creates of one pipeline label race, then exactly one pipeline is made and the others are told 409', async () => {
    await request(app).put(`/crm/admin/v1/accounts/${portalId}`).set('authorization', 'Bearer admin-token').send({ token, pipelineLimit: 20 }).expect(200);
    const pipeline = { label: 'Raced', displayOrder: 1, stages: [{ label: 'Stage 1', displayOrder: 0, metadata: { probability: '0.5' } }] };
    const answers = await Promise.all(Array.from({ length: 10 }, () => as('post', '/crm/v3/pipelines/deals').send(pipeline)));
    expect(answers.map((answer) => answer.status).sort()).toEqual([201, ...Array<number>(9).fill(409)]);
    const listed = (await as('get', '/crm/v3/pipelines/deals').expect(200)).body.results as { label: string }[];
    expect(listed.filter((one) => one.label === 'Raced')).toHaveLength(1);
  });

  it('when a property or a pipeline is created twice, or a unique value is taken, then the answer is 409 in the error model', async () => {
    const property = { name: 'sync_key', label: 'Sync key', type: 'string', fieldType: 'text', groupName: 'contactinformation', hasUniqueValue: true };
    await as('post', '/crm/v3/properties/contacts').send(property).expect(201);
    const twice = await as('post', '/crm/v3/properties/contacts').send(property).expect(409);
    expect(twice.body).toEqual({
      status: 'error',
      message: 'Property "sync_key" already exists on contacts',
      requestId: expect.any(String),
      category: 'CONFLICT',
      correlationId: twice.body.requestId,
      errors: [{ message: 'Property "sync_key" already exists on contacts' }],
      context: {},
    });
    await as('post', '/crm/v3/objects/contacts/batch/create')
      .send({ inputs: [{ properties: { sync_key: 'taken' } }] })
      .expect(201);
    const taken = await as('post', '/crm/v3/objects/contacts/batch/create')
      .send({ inputs: [{ properties: { sync_key: 'taken' } }] })
      .expect(409);
    expect(taken.body.message).toMatch(/sync_key "taken" is already taken by object \d+/);
    const pipeline = { label: 'Second', displayOrder: 1, stages: [{ label: 'Stage 1', displayOrder: 0, metadata: { probability: '0.5' } }] };
    await as('post', '/crm/v3/pipelines/deals').send(pipeline).expect(201);
    await request(app).delete('/crm/v3/pipelines/deals/default').set('authorization', `Bearer ${token}`).expect(204); // below the limit of 2 again
    const pipelineTwice = await as('post', '/crm/v3/pipelines/deals').send(pipeline).expect(409);
    expect(pipelineTwice.body.message).toBe('A deal pipeline labelled "Second" already exists');
    await as('patch', '/crm/v3/pipelines/deals/nope').send({ label: 'X' }).expect(404);
  });

  it('upserts by a unique property: a repeated upsert finds the object the first one made', async () => {
    await as('post', '/crm/v3/properties/products')
      .send({ name: 'sync_key', label: 'Sync key', type: 'string', fieldType: 'text', groupName: 'productinformation', hasUniqueValue: true })
      .expect(201);
    const upsert = () =>
      as('post', '/crm/v3/objects/products/batch/upsert')
        .send({ inputs: [{ id: 'k-1', idProperty: 'sync_key', properties: { name: 'Widget' } }] })
        .expect(200);
    const [first, second] = [await upsert(), await upsert()];
    expect(second.body.results[0].id).toBe(first.body.results[0].id);
    const all = await as('post', '/crm/v3/objects/products/search').send({}).expect(200);
    expect(all.body.total).toBe(1);
  });

  it('when a line item is associated with a second deal, then it has that one deal, both ways, and the first deal lists it no more', async () => {
    const make = async (type: string, properties: object) =>
      (
        await as('post', `/crm/v3/objects/${type}/batch/create`)
          .send({ inputs: [{ properties }] })
          .expect(201)
      ).body.results[0].id;
    const [deal1, deal2, item] = [
      await make('deals', { dealname: 'D1' }),
      await make('deals', { dealname: 'D2' }),
      await make('line_items', { quantity: '1' }),
    ];
    for (const deal of [deal1, deal2]) {
      await as('post', '/crm/v4/associations/line_items/deals/batch/associate/default')
        .send({ inputs: [{ from: { id: item }, to: { id: deal } }] })
        .expect(200);
    }
    const read = await as('get', `/crm/v3/objects/line_items/${item}?associations=deals`).expect(200);
    expect(read.body.associations.deals.results).toEqual([{ id: deal2, type: 'default' }]);
    const deal = await as('get', `/crm/v3/objects/deals/${deal2}?associations=line_items`).expect(200);
    expect(deal.body.associations.line_items.results).toEqual([{ id: item, type: 'default' }]);
    // The deal it left no longer lists it (the association is gone both ways).
    const left = await as('get', `/crm/v3/objects/deals/${deal1}?associations=line_items`).expect(200);
    expect(left.body.associations?.line_items?.results ?? []).toEqual([]);
  });

  it('enforces the pipeline limit, makes the ids, and lets a pipeline and its stages be changed through their own endpoints', async () => {
    const pipeline = { label: 'Second', displayOrder: 1, stages: [{ label: 'Stage 1', displayOrder: 0, metadata: { probability: '0.5' } }] };
    const created = (await as('post', '/crm/v3/pipelines/deals').send(pipeline).expect(201)).body;
    expect(created).toMatchObject({ id: expect.stringMatching(/^\d+$/), label: 'Second', archived: false, createdAt: expect.any(String) });
    expect(created.stages).toEqual([expect.objectContaining({ id: expect.stringMatching(/^\d+$/), label: 'Stage 1', metadata: { probability: '0.5' } })]);
    const refused = await as('post', '/crm/v3/pipelines/deals')
      .send({ ...pipeline, label: 'Third' })
      .expect(400);
    expect(refused.body.message).toMatch(/limit of 2 deal pipelines/);
    const patched = await as('patch', `/crm/v3/pipelines/deals/${created.id}`).send({ label: 'Renamed' }).expect(200);
    expect(patched.body.label).toBe('Renamed');
    await as('post', `/crm/v3/pipelines/deals/${created.id}/stages`).send({ label: 'No probability', displayOrder: 1, metadata: {} }).expect(400);
    const added = (
      await as('post', `/crm/v3/pipelines/deals/${created.id}/stages`)
        .send({ label: 'Won', displayOrder: 1, metadata: { probability: '1.0', isClosed: 'true' } })
        .expect(201)
    ).body;
    await as('patch', `/crm/v3/pipelines/deals/${created.id}/stages/${created.stages[0].id}`).send({ label: 'Open' }).expect(200);
    await as('delete', `/crm/v3/pipelines/deals/${created.id}/stages/${added.id}`).expect(204);
    const stages = (await as('get', `/crm/v3/pipelines/deals/${created.id}/stages`).expect(200)).body.results;
    expect(stages.map((stage: { id: string; label: string }) => [stage.id, stage.label])).toEqual([[created.stages[0].id, 'Open']]);
  });

  it('answers 401 without a valid token and keeps portals apart', async () => {
    await request(app).get('/crm/v3/properties/contacts').expect(401);
    await request(app).get('/crm/v3/properties/contacts').set('authorization', 'Bearer nope-nope-nope-nope').expect(401);
    const created = await as('post', '/crm/v3/objects/contacts/batch/create')
      .send({ inputs: [{ properties: { email: 'mine@example.com' } }] })
      .expect(201);
    const otherToken = `other-${token}`;
    await request(app)
      .put(`/crm/admin/v1/accounts/${portalId + 10_000}`)
      .set('authorization', 'Bearer admin-token')
      .send({ token: otherToken })
      .expect(200);
    await request(app).get(`/crm/v3/objects/contacts/${created.body.results[0].id}`).set('authorization', `Bearer ${otherToken}`).expect(404);
  });
});
