import { parseServiceAddresses, portalOfCrmAccount, readinessOf, replicaAddresses, serviceReadinessOf } from './operations-view';

const ready = { status: 200, body: { status: 'ready', failing: [] } };
const rabbitmqFailing = { status: 503, body: { status: 'not ready', failing: ['rabbitmq'] } };
const refused = (address: string) => ({ unreachable: `connect ECONNREFUSED ${address}:3201` });

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

  it.each<[string, Parameters<typeof replicaAddresses>[0], string[]]>([
    ['a plain host resolves to one address', [{ address: '10.0.0.5', family: 4 }], ['10.0.0.5']],
    [
      'a headless Service resolves to each pod',
      [
        { address: '10.0.0.5', family: 4 },
        { address: '10.0.0.9', family: 4 },
      ],
      ['10.0.0.5', '10.0.0.9'],
    ],
    [
      'localhost resolves to both families',
      [
        { address: '::1', family: 6 },
        { address: '127.0.0.1', family: 4 },
      ],
      ['127.0.0.1'],
    ],
    [
      'dual-stack pods have an address of each family',
      [
        { address: '10.0.0.5', family: 4 },
        { address: 'fd00::5', family: 6 },
        { address: '10.0.0.9', family: 4 },
        { address: 'fd00::9', family: 6 },
      ],
      ['10.0.0.5', '10.0.0.9'],
    ],
    ['the cluster is IPv6-only', [{ address: 'fd00::5', family: 6 }], ['fd00::5']],
    [
      'an address comes twice',
      [
        { address: '10.0.0.5', family: 4 },
        { address: '10.0.0.5', family: 4 },
      ],
      ['10.0.0.5'],
    ],
  ])('when %s (%j), then the replicas are %j', (_case, resolved, expected) => {
    expect(replicaAddresses(resolved)).toEqual(expected);
  });

  it.each<[string, Parameters<typeof serviceReadinessOf>[0], Partial<ReturnType<typeof serviceReadinessOf>>]>([
    [
      'when the one replica of a plain host is ready, then the service reads ready, as before replicas',
      [{ address: '10.0.0.5', answer: ready }],
      { state: 'ready', ready: true, status: 200, detail: 'ready', readyReplicas: 1 },
    ],
    [
      'when the one replica fails a dependency, then the service is not ready naming it',
      [{ address: '10.0.0.5', answer: rabbitmqFailing }],
      { state: 'not ready', ready: false, status: 503, detail: 'not ready: rabbitmq failing', readyReplicas: 0 },
    ],
    [
      'when the one replica does not answer, then the service is not ready with no status',
      [{ address: '10.0.0.5', answer: refused('10.0.0.5') }],
      { state: 'not ready', ready: false, status: null, detail: 'no answer: connect ECONNREFUSED 10.0.0.5:3201', readyReplicas: 0 },
    ],
    [
      'when every one of three replicas is ready, then the service is ready: 3 of 3',
      ['10.0.0.9', '10.0.0.10', '10.0.0.5'].map((address) => ({ address, answer: ready })),
      { state: 'ready', ready: true, status: 200, detail: '3 of 3 replicas ready', readyReplicas: 3 },
    ],
    [
      'when two of three replicas are ready and one fails a dependency, then the service is partly ready and names the failing replica',
      [
        { address: '10.0.0.5', answer: ready },
        { address: '10.0.0.7', answer: rabbitmqFailing },
        { address: '10.0.0.6', answer: ready },
      ],
      { state: 'partly ready', ready: false, status: null, detail: '2 of 3 replicas ready; 10.0.0.7: not ready: rabbitmq failing', readyReplicas: 2 },
    ],
    [
      'when no replica of two is ready, for different reasons, then the service is not ready and names each in address order',
      [
        { address: '10.0.0.6', answer: refused('10.0.0.6') },
        { address: '10.0.0.5', answer: rabbitmqFailing },
      ],
      {
        state: 'not ready',
        ready: false,
        status: null,
        detail: '0 of 2 replicas ready; 10.0.0.5: not ready: rabbitmq failing; 10.0.0.6: no answer: connect ECONNREFUSED 10.0.0.6:3201',
        readyReplicas: 0,
      },
    ],
    [
      "when both replicas answer the same status, then that is the service's status",
      [
        { address: '10.0.0.5', answer: rabbitmqFailing },
        { address: '10.0.0.6', answer: rabbitmqFailing },
      ],
      { state: 'not ready', status: 503, readyReplicas: 0 },
    ],
    [
      'when the host resolves to no address (a Service without pods, a wrong name), then the service is not ready saying so',
      { unresolved: 'getaddrinfo ENOTFOUND mapper-replicas' },
      { state: 'not ready', ready: false, status: null, detail: 'no address: getaddrinfo ENOTFOUND mapper-replicas', readyReplicas: 0, replicas: [] },
    ],
    [
      'when the host resolves to an empty list, then the service is not ready saying so',
      [],
      { state: 'not ready', ready: false, status: null, detail: 'no address: the host resolved to none', readyReplicas: 0, replicas: [] },
    ],
  ])('%s', (_case, answers, expected) => {
    expect(serviceReadinessOf(answers)).toMatchObject(expected);
  });

  it('when several replicas answer, then each is listed by its address in numeric order with its own answer', () => {
    const { replicas } = serviceReadinessOf([
      { address: '10.0.0.10', answer: ready },
      { address: '10.0.0.9', answer: refused('10.0.0.9') },
    ]);
    expect(replicas).toEqual([
      { address: '10.0.0.9', ready: false, status: null, detail: 'no answer: connect ECONNREFUSED 10.0.0.9:3201' },
      { address: '10.0.0.10', ready: true, status: 200, detail: 'ready' },
    ]);
  });

  it.each([
    ['builtin:42', 42],
    ['hosted:https://api.crm.example.com:7', 7],
    ['hosted:https://api.crm.example.com:app:client-1:12', 12],
    ['hosted:https://api.crm.example.com:8443:app:client-1:12', 12],
    ['hosted:https://api.crm.example.com:app:client-1', null],
    ['hosted:https://api.crm.example.com:app:12', null],
    ['something-else', null],
    ['builtin:0', null],
  ])('when the budget key is %s, then its portal is %s', (key, portalId) => {
    expect(portalOfCrmAccount(key)).toBe(portalId);
  });
});
