import { FakeBroker, topicMatches } from './fake-broker';

describe('FakeBroker', () => {
  it.each([
    ['sync.batch.*', 'sync.batch.CONTACT', true],
    ['sync.batch.*', 'sync.batch', false],
    ['sync.#', 'sync.batch.CONTACT', true],
    ['#', 'anything.at.all', true],
    ['sync.batch.CONTACT', 'sync.batch.DEAL', false],
    ['*.mapped.*', 'changes.mapped.DEAL', true],
  ])('when the pattern is %s and the routing key %s, then it matches: %s', (pattern, routingKey, matches) => {
    expect(topicMatches(pattern, routingKey)).toBe(matches);
  });

  it('when a publish is told to fail, then it throws and records nothing, and the next one goes through', async () => {
    const broker = new FakeBroker();
    broker.failNextPublishes(1);

    await expect(broker.publish('a.b', { n: 1 })).rejects.toThrow(/not confirmed/);
    await broker.publish('a.b', { n: 2 });

    expect(broker.published).toEqual([{ routingKey: 'a.b', body: { n: 2 } }]);
  });

  it('when messages are delivered, then subscribers get copies, including what they publish meanwhile, and nothing before deliverAll', async () => {
    const broker = new FakeBroker();
    const seen: string[] = [];
    broker.subscribe<{ n: number }>('count.*', async (body, routingKey) => {
      seen.push(`${routingKey}:${body.n}`);
      if (body.n < 3) await broker.publish('count.next', { n: body.n + 1 });
    });
    const body = { n: 1 };
    await broker.publish('count.first', body);
    body.n = 99;
    expect(seen).toEqual([]);

    expect(await broker.deliverAll()).toBe(3);

    expect(seen).toEqual(['count.first:1', 'count.next:2', 'count.next:3']);
  });
});
