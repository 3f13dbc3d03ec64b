import {
  createValidator,
  crmConnectionInputSchema,
  MAX_PROPERTY_VALUE_LENGTH,
  v1SyncMessagesSchema,
  v2SettingsSchema,
  v2StoreInputSchema,
  v2SyncSubmissionSchema,
  type DataType,
  type PropertyMapping,
  type PropertyValue,
} from '@ecomm-sync/contracts';
import { convertValue } from './convert-value';
import { mapObject } from './map-object';
import { emptyObjectState, mergeMessage } from './object-state';
import { isValidEmail } from './validate-change';

/** The bound: no single value or message holds a shared worker's event loop longer. */
const BOUND_MS = 50;

/**
 * How long `work` holds the event loop: the least of a few runs. A run can only be lengthened by
 * the machine (another process, a collection), never shortened, so the least is the code's own
 * cost; a backtracking expression costs seconds here in every run.
 */
function heldMs(work: () => unknown, runs = 5): number {
  let least = Infinity;
  for (let run = 0; run < runs; run++) {
    const started = performance.now();
    work();
    least = Math.min(least, performance.now() - started);
  }
  return least;
}

const n = MAX_PROPERTY_VALUE_LENGTH;
const digits = (length: number) => '1'.repeat(length);

describe('hostile values', () => {
  it.each([
    ['NUMBER', 'digits with a letter at the end', `${digits(n - 1)}x`],
    ['NUMBER', 'a fraction with a letter at the end', `1.${digits(n - 3)}x`],
    ['NUMBER', 'a leading dot with a letter at the end', `.${digits(n - 2)}x`],
    ['NUMBER', 'an exponent with a letter at the end', `1e${digits(n - 3)}x`],
    ['NUMBER', 'spaces with a letter at the end', `${' '.repeat(n - 1)}x`],
    ['NUMBER', 'minus signs and digits', '-1'.repeat(n / 2)],
    // Valid numbers that reach the plain form's digit keeping: a long run of zeros before a last digit, and of nines.
    ['NUMBER', 'a fraction of zeros with a digit at the end', `0.${'0'.repeat(n - 3)}1`],
    ['NUMBER', 'a long decimal under one', `0.${digits(n - 2)}`],
    ['DATETIME', 'digits with a letter at the end', `${digits(n - 1)}x`],
    ['DATETIME', 'a date with a long time', `2024-01-01T${digits(n - 11)}`],
    ['DATETIME', 'repeated day names', 'Mon '.repeat(n / 4)],
    ['AVATAR_IMAGE', 'a long host', `http://${'a.'.repeat(n / 2 - 4)}`],
    ['AVATAR_IMAGE', 'a long escaped path', `http://a/${'%'.repeat(n - 9)}`],
    ['AVATAR_IMAGE', 'no scheme', 'h'.repeat(n)],
    ['STRING', 'the longest value', 'x'.repeat(n)],
  ] as [DataType, string, string][])('when a %s value is %s, then converting it holds the event loop under 50 ms', (dataType, _what, value) => {
    expect(value.length).toBeLessThanOrEqual(n);
    expect(heldMs(() => convertValue(value, dataType))).toBeLessThan(BOUND_MS);
  });

  it.each([
    ['a local part without a domain', `${'a'.repeat(n)}@`],
    ['a long domain', `a@${'b'.repeat(n)}`],
    ['many dots', `a@b${'.b'.repeat(n / 2)}`],
  ])('when an e-mail is %s, then checking it holds the event loop under 50 ms', (_what, value) => {
    expect(heldMs(() => isValidEmail(value))).toBeLessThan(BOUND_MS);
  });

  it('when one message carries hostile values in every property a body may hold, then merging and mapping it holds the event loop under 50 ms', () => {
    // 60 values of 64 KB: about the gateway's 4 MB body limit, one message.
    const properties: Record<string, PropertyValue> = {};
    const mappings: PropertyMapping[] = [];
    for (let i = 0; i < 60; i++) {
      const dataType = (['NUMBER', 'DATETIME', 'AVATAR_IMAGE', 'STRING'] as const)[i % 4];
      properties[`p${i}`] = `${digits(n - 1)}x`;
      mappings.push({ externalPropertyName: `p${i}`, crmPropertyName: `crm_${i}`, dataType });
    }
    const message = { externalObjectId: 'hostile', action: 'UPSERT' as const, changedAt: 1, properties };
    const held = heldMs(() => {
      const { state } = mergeMessage(emptyObjectState(), message, 1);
      return mapObject('PRODUCT', 'hostile', state, { enabled: true, mappings: { PRODUCT: mappings } });
    }, 3);
    expect(held).toBeLessThan(BOUND_MS);
  });

  describe('request validation (every expression ajv runs on a request)', () => {
    const uris = (length: number): [string, string][] => [
      ['a long host ending in a bad character', `http://${'a'.repeat(length - 8)}!`],
      ['user info without its @', `http://${'a:'.repeat((length - 8) / 2)}@`],
      ['a path of broken escapes', `http://a/${'%0'.repeat((length - 10) / 2)}%`],
      ['an IPv6 host never closed', `http://[${'0:'.repeat((length - 9) / 2)}`],
      ['a dotted host ending in a letter', `http://${'1.'.repeat((length - 8) / 2)}x`],
      ['a scheme that never ends', `h${'ttp'.repeat((length - 1) / 3)}`],
    ];
    const validators = {
      v1: createValidator(v1SyncMessagesSchema),
      v2: createValidator(v2SyncSubmissionSchema),
      settings: createValidator(v2SettingsSchema),
      store: createValidator(v2StoreInputSchema),
      connection: createValidator(crmConnectionInputSchema),
    };

    it.each(uris(2048))('when a webhook address is %s, then validating the settings holds the event loop under 50 ms', (_what, uri) => {
      expect(heldMs(() => validators.settings({ enabled: true, webhookUri: uri.slice(0, 2048) }))).toBeLessThan(BOUND_MS);
    });

    it.each(uris(2000))("when a store's admin address or a CRM base URL is %s, then validating it holds the event loop under 50 ms", (_what, uri) => {
      expect(heldMs(() => validators.store({ id: 's', label: 's', adminUri: uri.slice(0, 2000) }))).toBeLessThan(BOUND_MS);
      expect(heldMs(() => validators.connection({ kind: 'hosted', baseUrl: uri.slice(0, 2000), auth: { type: 'private-app', token: 't' } }))).toBeLessThan(
        BOUND_MS,
      );
    });

    it('when 200 messages carry the longest hostile ids and change times, then validating the batch holds the event loop under 50 ms', () => {
      const messages = Array.from({ length: 200 }, (_, i) => ({
        integratorObjectId: `${'~'.repeat(99)}${i % 10}`,
        action: 'UPSERT',
        changeOccurredTimestamp: `2024-01-01T${'1'.repeat(52)}`,
        propertyNameToValues: { [`${'n'.repeat(255)}`]: '1'.repeat(100) },
      }));
      expect(heldMs(() => validators.v1(messages))).toBeLessThan(BOUND_MS);
    });

    it('when a submission carries the most hostile values a body may hold, then validating it holds the event loop under 50 ms', () => {
      const properties = Object.fromEntries(Array.from({ length: 60 }, (_, i) => [`p${i}`, `${digits(n - 1)}x`]));
      const submission = {
        storeId: 's',
        objectType: 'PRODUCT',
        messages: [{ externalObjectId: 'x', action: 'UPSERT', properties, changedAt: '1'.repeat(64) }],
      };
      expect(heldMs(() => validators.v2(submission))).toBeLessThan(BOUND_MS);
    });
  });
});
