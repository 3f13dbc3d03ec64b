// What every tier's tests need (infrastructure, waits, builders, the launcher): the floor the fakes,
// the harness and the lib specs stand on. They import it from here, not from the index, which
// re-exports them too (importing the index from inside would be a circle at load time).
export { waitFor } from './wait-for';
export { deferred } from './deferred';
export { freePort } from './free-port';
export { uniqueName } from './unique-name';
export { testInfrastructure } from './infrastructure';
export * from './builders';
export { startWebhookReceiver } from './webhook-receiver';
export type { ReceivedWebhook, WebhookAnswer, WebhookReceiver } from './webhook-receiver';
export { startPrivateRabbitMq } from './private-rabbitmq';
export type { PrivateRabbitMq } from './private-rabbitmq';
export { recordingLogger } from './recording-logger';
export type { LogEntry } from './recording-logger';
export { assertEndpointSurvivesFuzz, fuzzBodies, fuzzConcurrency, fuzzRuns, fuzzSegment } from './fuzz-requests';
export type { FuzzBody, FuzzOptions, FuzzTarget } from './fuzz-requests';
export { documentedOperations, expressRoutes, routeTableDifferences } from './express-routes';
export { sealedFirstForm } from './sealed-first-form';
export { startMongoServer } from './mongo-server-launcher';
export type { LaunchedMongoServer, MongoCommandStat, MongoServerOptions } from './mongo-server-launcher';
export { workspaceRoot } from './workspace-root';
