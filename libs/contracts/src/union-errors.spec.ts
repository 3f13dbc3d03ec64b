import { alertDestinationInputSchema, alertRuleInputSchema } from './console-alerts-api';
import { changeTimeSchema } from './change-time';
import { importEventMessageSchema } from './imports';
import { createValidator } from './validation';

const rule = createValidator(alertRuleInputSchema);
const destination = createValidator(alertDestinationInputSchema);
const lag = (condition: object, extra: object = {}) => ({ name: 'Lag', condition, ...extra });

describe('what a refused union says to fix', () => {
  it.each<[string, unknown, string]>([
    ['minutes out of range', lag({ kind: 'sync-lag', minutes: 0 }), 'body/condition/minutes must be >= 1'],
    [
      'an unknown kind',
      lag({ kind: 'bogus' }),
      'body/condition/kind must be one of open-errors, sync-lag, crm-connection, import-failed, webhook-failed, got "bogus"',
    ],
    ['no kind', lag({ minutes: 5 }), 'body/condition/kind must be one of open-errors, sync-lag, crm-connection, import-failed, webhook-failed'],
    ['a field of another kind', lag({ kind: 'import-failed', minutes: 5 }), 'body/condition has an unknown field "minutes"'],
    [
      'an unknown error type',
      lag({ kind: 'open-errors', errorType: 'BOGUS', measure: 'count', threshold: 1 }),
      expect.stringMatching(/^body\/condition\/errorType must be one of INACTIVE_PORTAL, .*UNKNOWN_ERROR/) as unknown as string,
    ],
    ['a store id too long', lag({ kind: 'sync-lag', minutes: 5 }, { storeId: 'x'.repeat(101) }), 'body/storeId must be an ASCII string of 1 to 100 characters'],
  ])('when an alert rule has %s, then the answer names the field', (_case, body, message) => {
    expect(rule(body)).toEqual({ ok: false, message });
  });

  it.each<[string, unknown, string]>([
    ['a webhook address that is not http', { kind: 'webhook', url: 'ftp://example.com/x' }, 'body/url must be an http or https URL of at most 2000 characters'],
    ['an e-mail destination without an address', { kind: 'email' }, 'body is missing the required field "email"'],
    ['an e-mail address that is none', { kind: 'email', email: 'nope' }, 'body/email must be an e-mail address (name@example.com) of at most 254 characters'],
    ['an unknown kind', { kind: 'pager', url: 'https://example.com' }, 'body/kind must be one of webhook, slack, email, got "pager"'],
    ['not an object', [], 'body must be object'],
  ])('when a destination is %s, then the answer says what to fix', (_case, body, message) => {
    expect(destination(body)).toEqual({ ok: false, message });
  });

  const retryShaped = createValidator({
    oneOf: [
      {
        type: 'object',
        required: ['object'],
        additionalProperties: false,
        properties: { object: { type: 'object', required: ['id'], properties: { id: { type: 'string' } } } },
      },
      { type: 'object', required: ['errorType'], additionalProperties: false, properties: { errorType: { enum: ['A', 'B'] } } },
    ],
  });

  it.each<[string, unknown, string]>([
    ['one branch entered, a value refused', { errorType: 'C' }, 'body/errorType must be one of A, B'],
    ['one branch entered, deeper', { object: {} }, 'body/object is missing the required field "id"'],
    ['no branch entered', {}, 'body must be an object with "object", or one with "errorType"'],
  ])('when a union without a hint is refused with %s, then the entered branch speaks, else the union', (_case, body, message) => {
    expect(retryShaped(body)).toEqual({ ok: false, message });
  });

  it('when a union with a hint is refused, then its hint is the answer, whichever branch was entered', () => {
    expect(createValidator({ type: 'object', properties: { at: changeTimeSchema } })({ at: 'x'.repeat(65) })).toEqual({
      ok: false,
      message: expect.stringMatching(/^body\/at must be epoch milliseconds/),
    });
  });

  it.each<[string, object, unknown, string]>([
    [
      'an outer union whose branches both take the value as a string',
      {
        type: 'object',
        properties: { id: { anyOf: [{ anyOf: [{ type: 'string', pattern: '^[0-9]+$' }, { type: 'integer' }] }, { type: 'string', minLength: 1 }] } },
      },
      { id: '' },
      'body/id must match a schema in anyOf',
    ],
    [
      'a union of tagged branches, none of whose tags fits',
      importEventMessageSchema,
      { kind: 'webhook-completed', requestId: 'r', ok: false, status: 500 },
      'body must be an object with "kind" and "importId", or one with "kind": "webhook-completed" and "requestId" and "ok": true and "status", or one with "kind": "webhook-completed" and "requestId" and "ok": false and "reason"',
    ],
    [
      'a oneOf whose two branches both passed',
      { oneOf: [{ type: 'string' }, { type: 'string', minLength: 1 }] },
      'x',
      'body must match exactly one schema in oneOf',
    ],
  ])('when the value fails %s, then no single branch is said to be the one meant', (_case, schema, value, message) => {
    expect(createValidator(schema)(value)).toEqual({ ok: false, message });
  });

  const idLike = {
    type: 'object',
    properties: {
      id: {
        anyOf: [
          {
            anyOf: [
              { type: 'string', pattern: '^[0-9]+$' },
              { type: 'integer', minimum: 1 },
            ],
          },
          { type: 'string', minLength: 1 },
        ],
      },
    },
  };

  it.each<[string, object, unknown, string]>([
    ['a number below the minimum of a union inside a union', idLike, { id: 0 }, 'body/id must be >= 1'],
    [
      'a tag no branch takes',
      importEventMessageSchema,
      { kind: 'import-done', importId: 'a'.repeat(24) },
      'body/kind must be one of import-started, import-completed, webhook-completed, got "import-done"',
    ],
    ['no tag at all', importEventMessageSchema, { importId: 'a'.repeat(24) }, 'body/kind must be one of import-started, import-completed, webhook-completed'],
  ])('when the value has %s, then the answer names the field', (_case, schema, value, message) => {
    expect(createValidator(schema)(value)).toEqual({ ok: false, message });
  });
});
