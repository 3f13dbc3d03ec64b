import { parseServiceAddresses, portalOfCrmAccount, readinessOf } from './operations-view';

describe('the operator view rules', () => {
  it.each([
    ['', []],
    ['mapper=http://127.0.0.1:3201', [{ service: 'mapper', url: 'http://127.0.0.1:3201' }]],
    [
      ' mapper = http://m:1/ , import-coordinator=https://ic.example.com:3203,',
      [
        { service: 'mapper', url: 'http://m:1' },
        { service: 'import-coordinator', url: 'https://ic.example.com:3203' },
      ],
    ],
  ])('when the list is "%s", then the addresses are %j', (list, expected) => {
    expect(parseServiceAddresses(list)).toEqual(expected);
  });

  it.each([
    ['mapper', /"mapper" is not name=/],
    ['=http://m:1', /is not name=/],
    ['mapper=ftp://m:1', /is not name=/],
    ['Mapper=http://m:1', /is not name=/],
    ['mapper=http://a:1,mapper=http://b:1', /named twice/],
  ])('when the list is "%s", then it is refused saying %s', (list, message) => {
    expect(() => parseServiceAddresses(list)).toThrow(message);
  });

  it.each<[Parameters<typeof readinessOf>[0], ReturnType<typeof readinessOf>]>([
    [
      { status: 200, body: { status: 'ready', failing: [] } },
      { ready: true, status: 200, detail: 'ready' },
    ],
    [
      { status: 503, body: { status: 'not ready', failing: ['mongo', 'rabbitmq'] } },
      { ready: false, status: 503, detail: 'not ready: mongo, rabbitmq failing' },
    ],
    [
      { status: 404, body: '<html>' },
      { ready: false, status: 404, detail: 'not ready: answered 404' },
    ],
    [{ unreachable: 'connect ECONNREFUSED 127.0.0.1:3201' }, { ready: false, status: null, detail: 'no answer: connect ECONNREFUSED 127.0.0.1:3201' }],
  ])('when /readyz answers %j, then the service reads %j', (answer, expected) => {
    expect(readinessOf(answer)).toEqual(expected);
  });

  it.each([
    ['builtin:42', 42],
    ['hosted:https://api.crm.example.com:7', 7],
    ['hosted:https://api.crm.example.com:app:client-1', null],
    ['hosted:https://api.crm.example.com:app:12', null],
    ['something-else', null],
    ['builtin:0', null],
  ])('when the budget key is %s, then its portal is %s', (key, portalId) => {
    expect(portalOfCrmAccount(key)).toBe(portalId);
  });
});
