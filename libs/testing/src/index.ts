export * from './support';
export * from './harness';
export * from './fakes';
