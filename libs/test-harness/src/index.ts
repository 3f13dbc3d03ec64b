export { TestStack } from './test-stack';
export type { AppName, StackOptions, TestPortal } from './test-stack';
export { seedPortal, TEST_SECRETS_KEY } from './seed-portal';
