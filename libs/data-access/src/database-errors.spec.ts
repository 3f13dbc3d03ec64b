import { isDatabaseUnreachable } from './database-errors';

const named = (name: string, message = 'x') => Object.assign(new Error(message), { name });

describe('isDatabaseUnreachable', () => {
  it.each<[string, unknown, boolean]>([
    ['a network error', named('MongoNetworkError'), true],
    ['a network timeout', named('MongoNetworkTimeoutError'), true],
    ['no server selected in time', named('MongoServerSelectionError'), true],
    ['a client not connected', named('MongoNotConnectedError'), true],
    ['a closed topology', named('MongoTopologyClosedError'), true],
    [
      'a command mongoose buffered while disconnected',
      named('MongooseError', 'Operation `intake_paces.findOneAndUpdate()` buffering timed out after 10000ms'),
      true,
    ],
    ['a duplicate key', named('MongoServerError', 'E11000 duplicate key error'), false],
    ['another mongoose error', named('MongooseError', 'Model.find() no longer accepts a callback'), false],
    ['a defect', new TypeError('cannot read properties of undefined'), false],
    ['nothing', undefined, false],
  ])('when the error is %s, then it is unreachable: %p', (_case, error, unreachable) => {
    expect(isDatabaseUnreachable(error)).toBe(unreachable);
  });
});
