export * from './config';
export * from './logger';
export * from './observability';
export * from './http';
export * from './webhook-signature';
export * from './webhook-delivery';
export * from './async/deferred';
