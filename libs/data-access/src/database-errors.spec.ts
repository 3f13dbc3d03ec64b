import { mongo } from 'mongoose';
import { isDatabaseUnreachable } from './database-errors';

const named = (name: string, message = 'x') => Object.assign(new Error(message), { name });

describe('isDatabaseUnreachable', () => {
  it.each<[string, unknown, boolean]>([
    ['a network error', named('MongoNetworkError'), true],
    ['a network timeout', named('MongoNetworkTimeoutError'), true],
    ['no server selected in time', named('MongoServerSelectionError'), true],
    ['a client not connected', named('MongoNotConnectedError'), true],
    ['a closed topology', named('MongoTopologyClosedError'), true],
    ['a cleared connection pool', named('MongoPoolClearedError'), true],
    ['a subclass of the driver’s network error', new (class extends mongo.MongoNetworkError {})('socket hang up'), true],
    ['the driver’s server selection error', new mongo.MongoServerSelectionError('Server selection timed out after 10000 ms', {} as never), true],
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
