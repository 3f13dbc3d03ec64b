import { DatabaseClock } from './database-clock';

const T = 1_800_000_000_000;

/**
 * Our clock, moved by hand, and a server whose clock is `aheadMs` ahead and answers after `tripMs`;
 * `answerNext` queues one answer of its own (it may move our clock, or throw).
 */
function aServer(aheadMs: number, tripMs = 4) {
  let now = T;
  const answers: (() => Date)[] = [];
  const serverTime = async () => {
    const answer = answers.shift();
    if (answer) return answer();
    now += tripMs / 2;
    const theirs = new Date(now + aheadMs);
    now += tripMs / 2;
    return theirs;
  };
  return {
    serverTime,
    local: () => now,
    advance: (ms: number) => (now += ms),
    answerNext: (...queued: (() => Date)[]) => answers.push(...queued),
    /** An answer that takes `there` ms to reach the server, reads its clock `aheadMs` ahead of ours, and `back` ms to return. */
    exchange: (there: number, ahead: number, back: number) => () => {
      now += there;
      const theirs = new Date(now + ahead);
      now += back;
      return theirs;
    },
  };
}
const away = () => {
  throw new Error('connection closed');
};

describe('DatabaseClock', () => {
  it('when the server’s clock is 90 s ahead of ours, then now() reads the server’s time', async () => {
    const server = aServer(90_000);
    const clock = new DatabaseClock(server.serverTime, { local: server.local });

    await clock.measure();

    expect(clock.offset).toBe(90_000);
    expect(clock.uncertainty).toBe(2);
    expect(clock.now()).toBe(server.local() + 90_000);
  });

  it('when no measurement succeeded yet, then now() reads our own clock', () => {
    const server = aServer(5_000);
    expect(new DatabaseClock(server.serverTime, { local: server.local }).now()).toBe(T);
  });

  it('when measurements fail, then the offset in force stays, and the failure is told once until one succeeds again', async () => {
    const server = aServer(-3_000);
    const failures: unknown[] = [];
    const clock = new DatabaseClock(server.serverTime, { local: server.local, onFailure: (error) => failures.push(error) });
    await clock.measure();

    for (const outcome of ['fails', 'fails', 'succeeds', 'fails'] as const) {
      if (outcome === 'fails') server.answerNext(away);
      await clock.measure();
    }

    expect(clock.offset).toBe(-3_000);
    expect(failures).toHaveLength(2);
  });

  it('when the server answers without a time, then the measurement fails and says so', async () => {
    const server = aServer(0);
    const failures: unknown[] = [];
    const clock = new DatabaseClock(server.serverTime, { local: server.local, onFailure: (error) => failures.push(error) });
    server.answerNext(...Array.from({ length: 3 }, () => () => new Date(NaN)));

    await clock.measure();

    expect(clock.uncertainty).toBeNull();
    expect(failures).toEqual([new Error("the database server's answer had no usable localTime")]);
  });

  it('when the last exchange of a measurement was slow, then the quickest one counts', async () => {
    const server = aServer(1_000);
    const clock = new DatabaseClock(server.serverTime, { local: server.local });
    // Two quick exchanges, then a slow one (400 ms there and back) that read the server's clock late in its trip: alone, 150 ms off.
    server.answerNext(server.exchange(2, 1_000, 2), server.exchange(2, 1_000, 2), server.exchange(350, 1_000, 50));

    await clock.measure();

    expect(clock.offset).toBe(1_000);
  });

  it('when a later measurement is less certain than the one in force, then it is not taken until the one in force has aged', async () => {
    const server = aServer(2_000, 4);
    const clock = new DatabaseClock(server.serverTime, { local: server.local });
    await clock.measure();
    // A busy minute later: every exchange takes 100 ms, and the server's clock reads 30 ms further ahead.
    const slow = server.exchange(50, 2_030, 50);
    server.advance(60_000);
    server.answerNext(slow, slow, slow);

    await clock.measure();
    expect([clock.offset, clock.uncertainty]).toEqual([2_000, 2]);

    // Ten minutes on, the one in force may have drifted 60 ms: the slow one, 50 ms uncertain, is taken.
    server.advance(600_000);
    server.answerNext(slow, slow, slow);
    await clock.measure();
    expect([clock.offset, clock.uncertainty]).toEqual([2_030, 50]);
  });
});
