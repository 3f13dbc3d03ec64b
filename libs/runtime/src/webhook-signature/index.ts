export {
  signV1,
  signV2,
  signV3,
  uriAsReceived,
  verifyWebhook,
  WEBHOOK_SIGNATURE_HEADERS,
  type SignatureVersion,
  type SignedHeaders,
  type VerifyOptions,
  type WebhookRequest,
} from './webhook-signature';
