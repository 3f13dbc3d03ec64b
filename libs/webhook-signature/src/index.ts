export { signV1, signV2, signV3, verifyWebhook, WEBHOOK_SIGNATURE_HEADERS, type SignedHeaders, type WebhookRequest } from './webhook-signature';
