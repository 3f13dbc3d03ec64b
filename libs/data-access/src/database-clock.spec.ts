import { DatabaseClock } from './database-clock';

const T = 1_800_000_000_000;

/** Our clock, moved by hand, and a server whose clock is `aheadMs` ahead and answers after `tripMs`. */
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
  return { serverTime, local: () => now, advance: (ms: number) => (now += ms), answerNext: (answer: () => Date) => answers.push(answer) };
}

describe('DatabaseClock', () => {
  it('when the server’s clock is 90 s ahead of ours, then now() reads the server’s time', async () => {
    const server = aServer(90_000);
    const clock = new DatabaseClock(server.serverTime, { local: server.local });

    await clock.measure();

    expect(clock.offset).toBe(90_000);
    expect(clock.now()).toBe(server.local() + 90_000);
  });

  it('when no measurement succeeded yet, then now() reads our own clock', () => {
    const server = aServer(5_000);
    expect(new DatabaseClock(server.serverTime, { local: server.local }).now()).toBe(T);
  });

  it('when a measurement fails, then the last offset stays and the failure is told once, until one succeeds again', async () => {
    const server = aServer(-3_000);
    const failures: unknown[] = [];
    const clock = new DatabaseClock(server.serverTime, { local: server.local, onFailure: (error) => failures.push(error) });
    await clock.measure();
    const away = () => {
      throw new Error('connection closed');
    };

    server.answerNext(away);
    await clock.measure();
    server.answerNext(away);
    await clock.measure();

    expect(clock.offset).toBe(-3_000);
    expect(failures).toHaveLength(1);
  });

  it('when one exchange of a measurement was slow, then the quickest one counts', async () => {
    const server = aServer(1_000);
    const clock = new DatabaseClock(server.serverTime, { local: server.local });
    // A slow first answer (400 ms there and back) that read the server's clock late in its trip: taken alone, 150 ms off.
    server.answerNext(() => {
      server.advance(350);
      const theirs = new Date(server.local() + 1_000);
      server.advance(50);
      return theirs;
    });

    await clock.measure();

    expect(clock.offset).toBe(1_000);
  });
});
