import { Writable } from 'node:stream';
import winston from 'winston';
import { createLogger, logContext } from './logger';

/** A logger whose lines land in an array, and a detail that counts how often a format serialised it. */
function capturing(level: string) {
  const lines: Record<string, unknown>[] = [];
  const sink = new Writable({
    objectMode: true,
    write(info: Record<string | symbol, unknown>, _encoding, done) {
      lines.push(JSON.parse(String(info[Symbol.for('message')])));
      done();
    },
  });
  const logger = createLogger('test', level, [new winston.transports.Stream({ stream: sink })]);
  let serialised = 0;
  const detail = () => ({ toJSON: () => `serialised ${++serialised}` });
  return { logger, lines, detail, serialised: () => serialised };
}

describe('createLogger', () => {
  it('when a line is at or above the level, then it is written as JSON with its context and detail', () => {
    const { logger, lines, detail, serialised } = capturing('info');
    logContext.run({ requestId: 'r-1' }, () => logger.warn('held', { detail: detail() }));
    expect(lines).toEqual([expect.objectContaining({ level: 'warn', message: 'held', service: 'test', requestId: 'r-1', detail: 'serialised 1' })]);
    expect(serialised()).toBe(1);
  });

  it.each([
    ['info at warn', 'warn', 'info'],
    ['debug at info', 'info', 'debug'],
    ['warn at error', 'error', 'warn'],
  ] as const)('when a line is below the level (%s), then it is neither written nor formatted', (_case, level, lineLevel) => {
    const { logger, lines, detail, serialised } = capturing(level);
    logger[lineLevel]('accepted', { detail: detail() });
    expect(lines).toEqual([]);
    expect(serialised()).toBe(0);
  });

  it('when the level is lowered at run time, then lines it now lets through are written', () => {
    const { logger, lines } = capturing('warn');
    logger.info('before');
    logger.level = 'info';
    logger.info('after');
    expect(lines.map((line) => line.message)).toEqual(['after']);
  });
});
