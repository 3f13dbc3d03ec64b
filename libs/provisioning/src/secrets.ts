import { randomBytes } from 'node:crypto';

/** 256-bit random secret, URL-safe, with a prefix that says what it is. */
export const newSecret = (prefix: string): string => `${prefix}-${randomBytes(32).toString('base64url')}`;
