export { waitFor } from './wait-for';
export { freePort } from './free-port';
export { uniqueName } from './unique-name';
export { testInfrastructure } from './infrastructure';
export * from './builders';
export { startWebhookReceiver } from './webhook-receiver';
export type { ReceivedWebhook, WebhookAnswer, WebhookReceiver } from './webhook-receiver';
