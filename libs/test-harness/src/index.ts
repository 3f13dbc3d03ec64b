export { TestStack } from './test-stack';
export type { AppName, StackOptions, TestPortal } from './test-stack';
export { seedPortal } from './seed-portal';
