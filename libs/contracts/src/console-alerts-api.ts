import type { FromWireSchema } from './validation';
import { ERROR_TYPES } from './enums';
import { objectIdSchema } from './common-schemas';

/**
 * Alert rules and their destinations (issue 29, decision 0053): the console's API bodies, the
 * notice a destination receives, and the AMQP message that asks for one notice to be sent.
 */

const conditionSchema = {
  type: 'object',
  discriminator: { propertyName: 'kind' },
  oneOf: [
    {
      type: 'object',
      required: ['kind', 'errorType', 'measure', 'threshold'],
      additionalProperties: false,
      properties: {
        kind: { const: 'open-errors' },
        errorType: { oneOf: [{ type: 'string', enum: ERROR_TYPES }, { type: 'null' }] },
        measure: { type: 'string', enum: ['count', 'share'] },
        threshold: { type: 'number', minimum: 0, maximum: 1_000_000 },
      },
    },
    {
      type: 'object',
      required: ['kind', 'minutes'],
      additionalProperties: false,
      properties: { kind: { const: 'sync-lag' }, minutes: { type: 'integer', minimum: 1, maximum: 10_080 } },
    },
    {
      type: 'object',
      required: ['kind', 'unreachableMinutes'],
      additionalProperties: false,
      properties: { kind: { const: 'crm-connection' }, unreachableMinutes: { type: 'integer', minimum: 1, maximum: 10_080 } },
    },
    { type: 'object', required: ['kind'], additionalProperties: false, properties: { kind: { const: 'import-failed' } } },
    { type: 'object', required: ['kind'], additionalProperties: false, properties: { kind: { const: 'webhook-failed' } } },
  ],
} as const;

/** The kinds of rule whose figure the evaluator reads per store (a rule may name a store); the others watch the whole tenant. */
export const STORE_SCOPED_ALERT_KINDS: readonly (typeof conditionSchema.oneOf)[number]['properties']['kind']['const'][] = ['open-errors', 'sync-lag'];

/**
 * Rules a tenant may have, the install's defaults among them (beyond: 409): the shared alert
 * evaluator checks each on its schedule, and each change of state becomes a notice per destination.
 */
export const MAX_ALERT_RULES = 50;
/** Destinations a tenant may have (beyond: 409): each rule's change of state is stored and sent to every one. */
export const MAX_ALERT_DESTINATIONS = 20;

export const alertRuleInputSchema = {
  $id: 'console-alert-rule',
  type: 'object',
  required: ['name', 'condition'],
  additionalProperties: false,
  properties: {
    name: { type: 'string', minLength: 1, maxLength: 100 },
    /** Only this store's figure (open-errors and sync-lag rules; others are refused with it); absent or null: every store of the tenant. */
    storeId: { oneOf: [objectIdSchema, { type: 'null' }] },
    enabled: { type: 'boolean' },
    condition: conditionSchema,
  },
} as const;
export type AlertRuleInput = FromWireSchema<typeof alertRuleInputSchema>;

/**
 * Enables or disables a rule and changes nothing else: a switch does not send the rule back as it
 * was read, so an edit saved meanwhile (another tab, another person) is not put back.
 */
export const alertRuleSwitchSchema = {
  $id: 'console-alert-rule-switch',
  type: 'object',
  required: ['enabled'],
  additionalProperties: false,
  properties: { enabled: { type: 'boolean' } },
} as const;
export type AlertRuleSwitch = FromWireSchema<typeof alertRuleSwitchSchema>;

/** A destination as the console adds it: a signed webhook, an e-mail address or a Slack-compatible incoming webhook. */
export const alertDestinationInputSchema = {
  $id: 'console-alert-destination',
  type: 'object',
  discriminator: { propertyName: 'kind' },
  oneOf: [
    {
      type: 'object',
      required: ['kind', 'url'],
      additionalProperties: false,
      properties: {
        kind: { type: 'string', enum: ['webhook', 'slack'] },
        url: { type: 'string', minLength: 8, maxLength: 2000, pattern: '^https?://', errorHint: 'must be an http or https URL of at most 2000 characters' },
        label: { type: 'string', maxLength: 100 },
      },
    },
    {
      type: 'object',
      required: ['kind', 'email'],
      additionalProperties: false,
      properties: {
        kind: { const: 'email' },
        email: {
          type: 'string',
          minLength: 3,
          maxLength: 254,
          pattern: '^[^\\s@<>,;]+@[^\\s@<>,;]+\\.[^\\s@<>,;]+$',
          errorHint: 'must be an e-mail address (name@example.com) of at most 254 characters',
        },
        label: { type: 'string', maxLength: 100 },
      },
    },
  ],
} as const;
export type AlertDestinationInput = FromWireSchema<typeof alertDestinationInputSchema>;

/** A rule as the console reads it, with its state. */
export interface ConsoleAlertRule {
  id: string;
  portalId: number;
  appId: string | null;
  storeId: string | null;
  name: string;
  enabled: boolean;
  /** A rule made at install (it can be edited or disabled, not deleted). */
  isDefault: boolean;
  condition: AlertRuleInput['condition'];
  state: { status: 'ok' | 'firing' | 'resolved'; since: number | null; value: number; summary: string };
  lastEvaluatedAt: number | null;
}

export interface ConsoleAlertDestination {
  id: string;
  kind: 'webhook' | 'slack' | 'email';
  /** The address (email) whole, or the URL (webhook, slack) by its origin and last four characters ("https://hooks.slack.com/…x9Qz"): a URL may be a credential. */
  target: string;
  label: string;
  createdAt: number;
}

/** A notice as sent to a destination, newest first in the console; `status` is its delivery. */
export interface ConsoleAlertNotice {
  id: string;
  ruleId: string;
  ruleName: string;
  destinationId: string;
  kind: 'firing' | 'resolved';
  value: number;
  summary: string;
  createdAt: number;
  status: 'pending' | 'sending' | 'sent' | 'failed';
  attempts: number;
  lastError: string | null;
}

/**
 * The JSON body a webhook destination receives, signed with the destination's secret like the
 * import webhook (`X-Crm-Signature-v3` over method, URL, body and `X-Crm-Request-Timestamp`).
 */
export interface AlertNoticeBody {
  noticeId: string;
  state: 'firing' | 'resolved';
  rule: { id: string; name: string; kind: string };
  portalId: number;
  appId: string | null;
  storeId: string | null;
  /** The rule's figure: open errors, minutes of lag, failed imports … */
  value: number;
  summary: string;
  at: number;
  /** The console page that shows it. */
  link: string;
}

/** evaluator → notice sender (the `alerts.notice` topic): send this stored notice. */
export const alertNoticeMessageSchema = {
  $id: 'amqp-alert-notice',
  type: 'object',
  required: ['noticeId'],
  properties: { noticeId: { type: 'string', minLength: 1, maxLength: 300 } },
} as const;
export type AlertNoticeMessage = FromWireSchema<typeof alertNoticeMessageSchema>;
