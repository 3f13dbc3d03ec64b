import { createValidator, settingsWorkMessageSchema, type SettingsWorkMessage } from '@ecomm-sync/contracts';
import type { Broker } from '@ecomm-sync/messaging';
import type { CatchUpPortalUseCase } from '../use-cases/catch-up-portal.use-case';
import type { ReapplySettingsUseCase } from '../use-cases/reapply-settings.use-case';

const validateSettingsWork = createValidator<SettingsWorkMessage>(settingsWorkMessageSchema, 'message');

/**
 * Settings changes, re-apply chunks, and catching up what an account event released. Failure policy: schema failures are poison (dead-lettered
 * at once); others are retried after the delay (the job resumes from its stored progress).
 */
export function startSettingsWorkConsumer(broker: Broker, reapply: ReapplySettingsUseCase, catchUp: CatchUpPortalUseCase): Promise<void> {
  return broker.consume<SettingsWorkMessage>(
    'mapper.settings-work',
    ({ body }) => {
      switch (body.kind) {
        case 'settings-changed':
          return reapply.start(body);
        case 'reapply-chunk':
          return reapply.continue(body);
        case 'catch-up':
          return catchUp.run(body);
      }
    },
    validateSettingsWork,
  );
}
