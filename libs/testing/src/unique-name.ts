import { randomBytes } from 'node:crypto';

/** A name no other test run uses: for AMQP prefixes, database names and ids. */
export const uniqueName = (prefix: string): string => `${prefix}-${Date.now().toString(36)}-${randomBytes(3).toString('hex')}`;
