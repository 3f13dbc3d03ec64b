export * from './enums';
export * from './sync-v1';
export * from './sync-v2';
export * from './amqp-messages';
export * from './read-models';
export * from './validation';
export * from './common-schemas';
export * from './settings';
