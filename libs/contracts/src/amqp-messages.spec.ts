import { lookupsChangeOf } from './amqp-messages';

describe('lookupsChangeOf', () => {
  it.each<[string, unknown, ReturnType<typeof lookupsChangeOf>]>([
    ['an empty message (every look-up)', {}, null],
    ["an application's tenant", { tenant: { portalId: 7, appId: 'app-1' } }, { tenant: { portalId: 7, appId: 'app-1' }, crmSetUp: false }],
    ['a direct-mode tenant', { tenant: { portalId: 7, appId: null } }, { tenant: { portalId: 7, appId: null }, crmSetUp: false }],
    [
      "a tenant whose portal's CRM was set up",
      { tenant: { portalId: 7, appId: null }, crmSetUp: true },
      { tenant: { portalId: 7, appId: null }, crmSetUp: true },
    ],
    ['a set-up without a tenant (every look-up)', { crmSetUp: true }, null],
    ['a tenant this version cannot read (every look-up, to be safe)', { tenant: { portalId: 0, appId: 'x' } }, null],
    ['a tenant without its application', { tenant: { portalId: 7 } }, null],
    ["an install's tokens", { tokensOf: { portalId: 7, appId: 'app-1' } }, { tokensOf: { portalId: 7, appId: 'app-1' } }],
    ["a tenant and an install's tokens at once (every look-up)", { tenant: { portalId: 7, appId: null }, tokensOf: { portalId: 7, appId: 'app-1' } }, null],
    ['tokens of an install this version cannot read (every look-up)', { tokensOf: { portalId: 'seven', appId: 'app-1' } }, null],
    ['no object at all', 'everything', null],
    ['null', null, null],
  ])('when the message is %s, then it names %p', (_case, body, change) => {
    expect(lookupsChangeOf(body)).toEqual(change);
  });
});
