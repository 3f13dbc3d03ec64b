import { tenantOfLookupsChange } from './amqp-messages';

describe('tenantOfLookupsChange', () => {
  it.each<[string, unknown, ReturnType<typeof tenantOfLookupsChange>]>([
    ['an empty message (every look-up)', {}, null],
    ["an application's tenant", { tenant: { portalId: 7, appId: 'app-1' } }, { portalId: 7, appId: 'app-1' }],
    ['a direct-mode tenant', { tenant: { portalId: 7, appId: null } }, { portalId: 7, appId: null }],
    ['a tenant this version cannot read (every look-up, to be safe)', { tenant: { portalId: 0, appId: 'x' } }, null],
    ['a tenant without its application', { tenant: { portalId: 7 } }, null],
    ['no object at all', 'everything', null],
    ['null', null, null],
  ])('when the message is %s, then it names %p', (_case, body, tenant) => {
    expect(tenantOfLookupsChange(body)).toEqual(tenant);
  });
});
