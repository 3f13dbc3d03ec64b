import { alertNoticeMessageSchema, createValidator, TOPICS, type AlertNoticeMessage } from '@ecomm-sync/contracts';
import { CrmConnections, MongoCrmBudgets } from '@ecomm-sync/crm-client';
import { SecretBox } from '@ecomm-sync/data-access';
import { runPeriodically, runService } from '@ecomm-sync/service-runtime';
import { countEvaluations } from './alert-metrics';
import { EmailChannel } from './channels/email.channel';
import { SlackChannel, WebhookChannel } from './channels/webhook.channel';
import { loadAlertEvaluatorConfig } from './config';
import { crmProbe } from './use-cases/crm-probe';
import { EvaluateAlertsUseCase } from './use-cases/evaluate-alerts.use-case';
import { SendNoticeUseCase } from './use-cases/send-notice.use-case';

const validateNotice = createValidator(alertNoticeMessageSchema, 'message');

/**
 * Alert rules and notices (decision 0053): every ALERT_EVALUATION_INTERVAL_MS each replica
 * evaluates the rules it claims (one replica per rule and interval), and it sends the notices of
 * `alert-evaluator.notices`. Failure policy: a message that fails its schema is dead-lettered at
 * once; a notice that fails for good is marked failed with its reason and dead-lettered (a redrive
 * sends it again); any other failure is retried after the delay.
 */
runService({
  name: 'alert-evaluator',
  loadConfig: loadAlertEvaluatorConfig,
  healthPort: (config) => config.ALERT_EVALUATOR_HEALTH_PORT,
  start: async ({ config, logger, database, broker, onStop }) => {
    const { alertRules, alertDestinations, alertNotices, alertCounters } = database.repositories;
    const secrets = SecretBox.fromConfig(config);
    const http = { timeoutMs: config.ALERT_NOTICE_TIMEOUT_MS, allowPrivateTargets: config.WEBHOOK_ALLOW_PRIVATE_TARGETS };
    const email = new EmailChannel({ smtpUrl: config.ALERT_SMTP_URL, from: config.ALERT_MAIL_FROM, timeoutMs: config.ALERT_NOTICE_TIMEOUT_MS });
    const sender = new SendNoticeUseCase(
      {
        notices: alertNotices,
        destinations: alertDestinations,
        channels: { webhook: new WebhookChannel(secrets, http), slack: new SlackChannel(secrets, http), email },
        clock: Date.now,
        logger,
      },
      {
        maxAttempts: config.ALERT_NOTICE_MAX_ATTEMPTS,
        backoffBaseMs: config.ALERT_NOTICE_BACKOFF_BASE_MS,
        // Longer than every attempt and backoff of one notice: another replica takes over only a sender that stopped.
        leaseMs:
          config.ALERT_NOTICE_MAX_ATTEMPTS * config.ALERT_NOTICE_TIMEOUT_MS + 2 ** config.ALERT_NOTICE_MAX_ATTEMPTS * config.ALERT_NOTICE_BACKOFF_BASE_MS,
      },
    );
    await broker.consume<AlertNoticeMessage>('alert-evaluator.notices', async ({ body }) => void (await sender.send(body.noticeId)), validateNotice);
    const budgets = new MongoCrmBudgets(database.connection);
    const connections = new CrmConnections({
      portals: database.repositories.portals,
      secretBox: secrets,
      builtinBaseUrl: config.CRM_BASE_URL,
      timeoutMs: config.CRM_TIMEOUT_MS,
      // A probe hardly waits for the budget: an account that is busy is not refusing its token.
      maxWaitMs: 1000,
      budgetFor: (accountKey, limits, kind) => budgets.for(accountKey, limits, kind),
      allowHttpHosted: config.CRM_ALLOW_HTTP,
      logger,
    });
    const evaluator = new EvaluateAlertsUseCase(
      {
        rules: alertRules,
        destinations: alertDestinations,
        notices: alertNotices,
        counters: alertCounters,
        unapplied: database.repositories.objectStates,
        enqueue: (noticeId) => broker.publish(TOPICS.alertNotice, { noticeId } satisfies AlertNoticeMessage),
        probeCrm: crmProbe(database.repositories.portals, connections, { everyMs: config.ALERT_CRM_PROBE_INTERVAL_MS }),
        clock: Date.now,
        logger,
      },
      { intervalMs: config.ALERT_EVALUATION_INTERVAL_MS, batchSize: config.ALERT_EVALUATION_BATCH, consoleUrl: config.GATEWAY_PUBLIC_URL ?? '' },
    );
    const stopEvaluating = runPeriodically(
      config.ALERT_EVALUATION_INTERVAL_MS,
      async () => countEvaluations((await evaluator.run()).evaluated),
      (error) => logger.warn('evaluating alert rules failed; tried again at the next interval', { error: String(error) }),
    );
    onStop(async () => {
      await stopEvaluating();
      email.close();
    });
  },
});
