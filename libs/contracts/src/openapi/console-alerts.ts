import { alertDestinationInputSchema, alertRuleInputSchema, alertRuleSwitchSchema, MAX_ALERT_DESTINATIONS, MAX_ALERT_RULES } from '../console-alerts-api';
import type { ApiOperation, ApiParameter } from './openapi-builder';
import { CREDENTIALS } from './security';

const portalId: ApiParameter = { description: "Only this portal: the credential's own (another portal answers 403)", schema: { type: 'integer', minimum: 1 } };
const appId: ApiParameter = {
  description: 'The application: with a developer key, or a portal key managing an installed application',
  schema: { type: 'string' },
};
const signedIn = { tag: 'Console', security: CREDENTIALS.consoleUser, query: { portalId, appId } } as const;
const ruleId: ApiParameter = { description: 'The rule', schema: { type: 'string' } };
const destinationId: ApiParameter = { description: 'The destination', schema: { type: 'string' } };
const object = (description: string) => ({ description, schema: { type: 'object' } });

/** Alert rules, destinations and notices (issue 29, decision 0053), with the console's credential rule. */
export const GATEWAY_CONSOLE_ALERT_OPERATIONS: readonly ApiOperation[] = [
  {
    method: 'get',
    path: '/console/api/v1/alerts',
    summary: "The tenant's alert rules with their state (the install's defaults included), destinations, and newest notices with their delivery",
    ...signedIn,
    responses: { 200: object('Rules, destinations and notices') },
    errors: [400, 403, 404],
  },
  {
    method: 'post',
    path: '/console/api/v1/alerts/rules',
    summary: `Adds a rule: open errors (count or share, by type or any), sync lag, CRM connection failing, import failed, import webhook failed (at most ${MAX_ALERT_RULES} a tenant, the install's among them: 409)`,
    ...signedIn,
    body: { schema: alertRuleInputSchema },
    responses: { 201: object('The rule') },
    errors: [400, 403, 404, 409],
  },
  {
    method: 'put',
    path: '/console/api/v1/alerts/rules/{ruleId}',
    summary: 'Replaces a rule (name, store, enabled, condition); it starts over from ok, without a notice',
    ...signedIn,
    pathParams: { ruleId },
    body: { schema: alertRuleInputSchema },
    responses: { 200: object('The rule') },
    errors: [400, 403, 404],
  },
  {
    method: 'patch',
    path: '/console/api/v1/alerts/rules/{ruleId}',
    summary: 'Enables or disables a rule, leaving the rest as stored (an edit saved meanwhile stays); it starts over from ok, without a notice',
    ...signedIn,
    pathParams: { ruleId },
    body: { schema: alertRuleSwitchSchema },
    responses: { 200: object('The rule') },
    errors: [400, 403, 404],
  },
  {
    method: 'delete',
    path: '/console/api/v1/alerts/rules/{ruleId}',
    summary: "Deletes a rule the customer added (the install's rules are disabled instead: 409)",
    ...signedIn,
    pathParams: { ruleId },
    responses: { 204: { description: 'Deleted' } },
    errors: [403, 404, 409],
  },
  {
    method: 'post',
    path: '/console/api/v1/alerts/destinations',
    summary: `Adds a destination: a signed webhook (its signing secret is answered once), a Slack-compatible incoming webhook, or an e-mail address (at most ${MAX_ALERT_DESTINATIONS} a tenant: 409)`,
    ...signedIn,
    body: { schema: alertDestinationInputSchema },
    responses: { 201: object('The destination, with `signingSecret` for a webhook') },
    errors: [400, 403, 404, 409],
  },
  {
    method: 'delete',
    path: '/console/api/v1/alerts/destinations/{destinationId}',
    summary: 'Removes a destination (its pending notices fail with "the destination was removed")',
    ...signedIn,
    pathParams: { destinationId },
    responses: { 204: { description: 'Removed' } },
    errors: [403, 404],
  },
];
