export * from './object-state';
export * from './convert-value';
export * from './map-object';
export * from './validate-change';
export * from './ecommerce-setup';
export * from './error-details';
export * from './sync-key';
export * from './settings-rules';
