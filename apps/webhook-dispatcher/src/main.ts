import { createValidator, webhookRequestMessageSchema, type WebhookRequestMessage } from '@ecomm-sync/contracts';
import { SecretBox } from '@ecomm-sync/data-access';
import { runService } from '@ecomm-sync/service-runtime';
import { loadWebhookDispatcherConfig } from './config';
import { DispatchWebhookUseCase } from './use-cases/dispatch-webhook.use-case';

const validateRequest = createValidator(webhookRequestMessageSchema, 'message');

/**
 * Signed outbound webhooks with retries. Failure policy: a message that fails its schema is
 * dead-lettered at once; a crash mid-way redelivers the request, which starts its attempts again.
 */
runService({
  name: 'webhook-dispatcher',
  loadConfig: loadWebhookDispatcherConfig,
  healthPort: (config) => config.WEBHOOK_DISPATCHER_HEALTH_PORT,
  start: async ({ config, logger, database, broker }) => {
    const dispatcher = new DispatchWebhookUseCase(database.repositories, SecretBox.fromConfig(config), broker, logger, {
      timeoutMs: config.WEBHOOK_TIMEOUT_MS,
      maxAttempts: config.WEBHOOK_MAX_ATTEMPTS,
      backoffBaseMs: config.WEBHOOK_BACKOFF_BASE_MS,
      allowPrivateTargets: config.WEBHOOK_ALLOW_PRIVATE_TARGETS,
    });
    await broker.consume<WebhookRequestMessage>('webhook-dispatcher.requests', ({ body }) => dispatcher.dispatch(body), validateRequest);
  },
});
