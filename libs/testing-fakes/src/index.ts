export { asRepositories, copy } from './public-of';
export type { PublicOf } from './public-of';
export * from './builders';
export { FakeBroker, asBroker, topicMatches } from './broker/fake-broker';
export type { PublishedMessage } from './broker/fake-broker';
export { FakeImportRepository } from './repositories/fake-import.repository';
export { describeImportRepositoryContract } from './contracts/import-repository.contract';
