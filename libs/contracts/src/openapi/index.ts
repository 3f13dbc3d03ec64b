export * from './openapi-builder';
export * from './security';
export * from './gateway-document';
export * from './document-validator';
