import { createValidator, settingsWorkMessageSchema, type SettingsWorkMessage } from '@ecomm-sync/contracts';
import type { Broker } from '@ecomm-sync/messaging';
import type { CatchUpPortalUseCase } from '../use-cases/catch-up-portal.use-case';
import type { RefreshObjectsUseCase } from '../use-cases/refresh-objects.use-case';
import type { ReapplySettingsUseCase } from '../use-cases/reapply-settings.use-case';

const validateSettingsWork = createValidator(settingsWorkMessageSchema, 'message');

/**
 * Settings changes, re-apply chunks, catching up what an account event released, and refreshing
 * objects the applier asks for. Failure policy: schema failures are poison (dead-lettered at once);
 * others are retried after the delay (the job resumes from its stored progress).
 */
export function startSettingsWorkConsumer(
  broker: Broker,
  { reapply, catchUp, refresh }: { reapply: ReapplySettingsUseCase; catchUp: CatchUpPortalUseCase; refresh: RefreshObjectsUseCase },
): Promise<void> {
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
        case 'refresh-objects':
          return refresh.run(body);
      }
    },
    validateSettingsWork,
  );
}
