/** A promise and the function that resolves it: a test holds a handler (or a wait) until it says so. */
export { deferred } from '@ecomm-sync/runtime';
