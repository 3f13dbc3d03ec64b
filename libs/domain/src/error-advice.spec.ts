import { ERROR_TYPES, type ErrorType } from '@ecomm-sync/contracts';
import { errorAdvice, waitsForSetAside } from './error-advice';

describe('errorAdvice', () => {
  it.each(ERROR_TYPES.map((type) => [type]))('when the error type is %s, then there is something to do', (type) => {
    expect(errorAdvice(type).whatToDo.length).toBeGreaterThan(20);
  });

  it.each<[ErrorType, boolean, RegExp]>([
    ['INVALID_EMAIL_ADDRESS', true, /fix the mapping and retry/],
    ['NO_PROPERTIES_DEFINED', true, /Create the property in the CRM/],
    ['INVALID_ASSOCIATION_PROPERTY', false, /applies by itself/],
    ['EMPTY_MESSAGE', false, /sender must send/],
    ['SETTINGS_NOT_ENABLED', true, /Enable them/],
    ['ERROR_INVALID_DATE_PROPERTY', true, /A DATETIME mapping takes epoch milliseconds only .* A STRING mapping passes the text as sent/],
    ['INVALID_ENUM_PROPERTY', true, /a yes\/no property takes true or false only/],
  ])('when the error type is %s, then a retry helps: %s, and it says %s', (type, retryHelps, says) => {
    expect(errorAdvice(type)).toEqual({ retryHelps, whatToDo: expect.stringMatching(says) });
  });

  it('when an error waits for a batch set aside, then whatever its type a retry does not help, and it says the redrive clears it', () => {
    expect(errorAdvice('UNKNOWN_ERROR', { setAside: true })).toEqual({
      retryHelps: false,
      whatToDo: expect.stringMatching(/clears when the service’s operators redrive that batch/),
    });
    expect(errorAdvice('UNKNOWN_ERROR', { setAside: false }).retryHelps).toBe(true);
  });

  it.each([
    ['open, with its batch', { status: 'OPEN', setAsideBatchId: 'b-1' }, true],
    ["resolved by its batch's merge", { status: 'RESOLVED', setAsideBatchId: 'b-1' }, false],
    ['open, of no set-aside batch', { status: 'OPEN' }, false],
  ] as const)('when an error is %s, then it waits for a set-aside batch: %s', (_case, error, waits) => {
    expect(waitsForSetAside(error)).toBe(waits);
  });
});
