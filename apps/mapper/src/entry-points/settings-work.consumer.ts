import { createValidator, settingsWorkMessageSchema, type SettingsWorkMessage } from '@ecomm-sync/contracts';
import type { Broker } from '@ecomm-sync/messaging';
import type { ReapplySettingsUseCase } from '../use-cases/reapply-settings.use-case';

const validateSettingsWork = createValidator<SettingsWorkMessage>(settingsWorkMessageSchema, 'message');

/**
 * Settings changes and re-apply chunks. Failure policy: schema failures are poison (dead-lettered
 * at once); others are retried after the delay (the job resumes from its stored progress).
 */
export function startSettingsWorkConsumer(broker: Broker, reapply: ReapplySettingsUseCase): Promise<void> {
  return broker.consume<SettingsWorkMessage>(
    'mapper.settings-work',
    ({ body }) => (body.kind === 'settings-changed' ? reapply.start(body) : reapply.continue(body)),
    validateSettingsWork,
  );
}
