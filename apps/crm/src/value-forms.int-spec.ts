import request from 'supertest';
import { openTestCrmApp, type TestCrmApp } from './crm-server-fixture';

/** Values the hosted CRM takes in more than one form, or checks beyond their type (validate-values.ts). */
describe('built-in CRM values in the forms the hosted CRM takes', () => {
  let crm: TestCrmApp | undefined;
  let app: TestCrmApp['app'];
  const token = 'token-of-portal-value-forms';

  beforeAll(async () => {
    crm = await openTestCrmApp('crm-value-forms');
    app = crm.app;
    await request(app).put('/crm/admin/v1/accounts/7100').set('authorization', 'Bearer admin-token').send({ token }).expect(200);
  });

  afterAll(() => crm?.close());

  const as = (method: 'get' | 'post' | 'patch', path: string) => request(app)[method](path).set('authorization', `Bearer ${token}`);

  it('when a date-time is written as ISO 8601 in UTC, then it is kept as its epoch milliseconds, and writing that again changes nothing', async () => {
    const [deal] = (
      await as('post', '/crm/v3/objects/deals/batch/create')
        .send({ inputs: [{ properties: { dealname: 'Dated', closedate: '2024-05-01T12:30:00Z' } }] })
        .expect(201)
    ).body.results;
    expect(deal.properties.closedate).toBe('1714566600000');

    await as('patch', `/crm/v3/objects/deals/${deal.id}`)
      .send({ properties: { closedate: '1714566600000' } })
      .expect(200);
    const history = await as('get', `/crm/v3/objects/deals/${deal.id}?propertiesWithHistory=closedate`).expect(200);
    expect(history.body.propertiesWithHistory.closedate.map((entry: { value: string }) => entry.value)).toEqual(['1714566600000']);
  });

  it("when a contact is given an e-mail address whose domain has no top-level domain, then it is refused with INVALID_EMAIL in the hosted CRM's words", async () => {
    const answer = await as('post', '/crm/v3/objects/contacts/batch/create')
      .send({ inputs: [{ properties: { email: 'ann@localhost' } }] })
      .expect(400);
    expect(answer.body).toMatchObject({ category: 'VALIDATION_ERROR', errors: [{ code: 'INVALID_EMAIL', in: 'email' }] });
    expect(answer.body.message).toContain('Email address ann@localhost is invalid');
  });

  it('when an upsert names its object by an e-mail address that is not one, then it is refused as a written one is, and nothing is made', async () => {
    const answer = await as('post', '/crm/v3/objects/contacts/batch/upsert')
      .send({ inputs: [{ idProperty: 'email', id: 'bob@localhost', properties: {} }] })
      .expect(400);
    expect(answer.body).toMatchObject({ errors: [{ code: 'INVALID_EMAIL', in: 'email' }] });
    const found = await as('post', '/crm/v3/objects/contacts/search')
      .send({ filterGroups: [{ filters: [{ propertyName: 'email', operator: 'EQ', value: 'bob@localhost' }] }] })
      .expect(200);
    expect(found.body.total).toBe(0);
  });

  it('when a search asks for a date-time in ISO 8601, then it finds the objects written with its epoch milliseconds', async () => {
    await as('post', '/crm/v3/objects/deals/batch/create')
      .send({ inputs: [{ properties: { dealname: 'Searched by date', closedate: '1717243200000' } }] })
      .expect(201);
    const search = (operator: string, value: string) =>
      as('post', '/crm/v3/objects/deals/search').send({
        filterGroups: [
          {
            filters: [
              { propertyName: 'closedate', operator, value },
              { propertyName: 'dealname', operator: 'EQ', value: 'Searched by date' },
            ],
          },
        ],
      });
    expect((await search('EQ', '2024-06-01T12:00:00Z').expect(200)).body.total).toBe(1);
    expect((await search('GT', '2024-06-01T11:59:59.999Z').expect(200)).body.total).toBe(1);
    expect((await search('LT', '2024-06-01T12:00:00Z').expect(200)).body.total).toBe(0);
  });
});
