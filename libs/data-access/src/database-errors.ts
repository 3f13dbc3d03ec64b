import { mongo } from 'mongoose';

/**
 * Whether `error` says the database cannot be reached (the driver's network errors with their
 * subclasses such as a cleared pool, server selection and closed-topology errors, or mongoose giving
 * up on a command it buffered while disconnected), as opposed to a refusal or a defect: the caller
 * may wait for it to come back, or do without it.
 */
export function isDatabaseUnreachable(error: unknown): boolean {
  if (error instanceof mongo.MongoNetworkError || error instanceof mongo.MongoServerSelectionError || error instanceof mongo.MongoTopologyClosedError)
    return true;
  const { name = '', message = '' } = (error ?? {}) as { name?: string; message?: string };
  return /^Mongo(Network|ServerSelection|NotConnected|Topology|PoolCleared)/.test(name) || (name === 'MongooseError' && /buffering timed out/.test(message));
}
