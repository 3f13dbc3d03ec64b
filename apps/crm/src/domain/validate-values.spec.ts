import type { PropertyDefinition } from './object-types';
import { storedValue, valueProblem } from './validate-values';

const option = (value: string, displayOrder = 0) => ({ label: value, value, displayOrder, hidden: false });
const property = (overrides: Partial<PropertyDefinition>): PropertyDefinition => ({
  name: 'prop',
  label: 'Prop',
  type: 'string',
  fieldType: 'text',
  groupName: 'dealinformation',
  hasUniqueValue: false,
  options: [],
  ...overrides,
});
const size = property({ name: 'size', type: 'enumeration', fieldType: 'select', options: [option('small'), option('large', 1)] });
const date = property({ type: 'date', fieldType: 'date' });
const dateTime = property({ type: 'datetime', fieldType: 'date' });
const email = property({ name: 'email', groupName: 'contactinformation' });
const colours = property({ name: 'colours', type: 'enumeration', fieldType: 'checkbox', options: [option('red'), option('blue', 1)] });

describe('a value checked against its property, as the hosted CRM checks it', () => {
  it.each<[string, PropertyDefinition, unknown, string | null]>([
    ['an option of a select', size, 'small', null],
    ['a value outside the options of a select', size, 'medium', 'INVALID_OPTION'],
    ['an option in another case', size, 'Small', 'INVALID_OPTION'],
    ['an empty value (clears it)', size, '', null],
    ['several options of a checkbox', colours, 'red;blue', null],
    ['a checkbox value with one outside the options', colours, 'red;green', 'INVALID_OPTION'],
    ['any value of an enumeration without options (the deal stage)', property({ type: 'enumeration', fieldType: 'select' }), 'anything', null],
    ['a date that is neither epoch milliseconds nor an ISO day', date, '01/05/2024', 'INVALID_LONG'],
    ['a date as an ISO day', date, '2024-01-01', null],
    ['a date as an ISO day that does not exist', date, '2024-02-30', 'INVALID_LONG'],
    ['a date as an ISO date-time (a date property takes a day)', date, '2024-01-01T00:00:00Z', 'INVALID_LONG'],
    ['a date time as an ISO UTC date-time', dateTime, '2024-05-01T12:30:17.883Z', null],
    ['a date time as an ISO UTC date-time without seconds', dateTime, '2024-05-01T12:30Z', null],
    ['a date time at an hour that does not exist', dateTime, '2024-05-01T25:00:00Z', 'INVALID_LONG'],
    ['a date time with an offset instead of Z', dateTime, '2024-05-01T12:30:00+01:00', null],
    ['a date time with an offset beyond 18 hours', dateTime, '2024-05-01T12:30:00+18:01', 'INVALID_LONG'],
    ['a date time with an offset of 18 hours', dateTime, '2024-05-01T12:30:00-18:00', null],
    ['a date time with an offset without its colon', dateTime, '2024-05-01T12:30:00+0100', 'INVALID_LONG'],
    ['a date time as an ISO day', dateTime, '2024-05-01', 'INVALID_LONG'],
    ['a boolean that is neither true nor false', property({ type: 'bool', fieldType: 'booleancheckbox' }), 'yes', 'INVALID_OPTION'],
    ['a boolean', property({ type: 'bool', fieldType: 'booleancheckbox' }), true, null],
    ['an e-mail address', email, 'ann.lee+shop@mail.example.co.uk', null],
    ['an e-mail address without @', email, 'example.lcom', 'INVALID_EMAIL'],
    ['an e-mail address whose domain has no top-level domain', email, 'ann@localhost', 'INVALID_EMAIL'],
    ['an e-mail address whose top-level domain has a digit', email, 'ann@example.c0m', 'INVALID_EMAIL'],
    ['an e-mail address with a quoted local part', email, '"ann lee"@example.com', 'INVALID_EMAIL'],
    ['an e-mail address with two dots in a row', email, 'ann..lee@example.com', 'INVALID_EMAIL'],
    ['an e-mail address with a space', email, 'ann @example.com', 'INVALID_EMAIL'],
    ['an e-mail address under an internationalised top-level domain', email, 'ann@example.xn--p1ai', null],
    ['a date at midnight UTC', property({ type: 'date', fieldType: 'date' }), '1430438400000', null],
    ['a date before 1970 at midnight UTC', property({ type: 'date', fieldType: 'date' }), '-86400000', null],
    ['a date at another time of day', property({ type: 'date', fieldType: 'date' }), '1430438400001', 'INVALID_DATE'],
    ['a date of 16 digits a millisecond past midnight', property({ type: 'date', fieldType: 'date' }), '9007199308800001', 'INVALID_DATE'],
    ['a date time at any time of day', property({ type: 'datetime', fieldType: 'date' }), '1430438400001', null],
    ['a number that is not one', property({ type: 'number', fieldType: 'number' }), 'ten', 'INVALID_NUMBER'],
    ['a number with a point', property({ type: 'number', fieldType: 'number' }), '-4.68', null],
    ['a number with an exponent', property({ type: 'number', fieldType: 'number' }), '1e-7', 'INVALID_NUMBER'],
    ['a number with a decimal comma', property({ type: 'number', fieldType: 'number' }), '4,68', 'INVALID_NUMBER'],
    ['a number with a plus or a space', property({ type: 'number', fieldType: 'number' }), ' +5', 'INVALID_NUMBER'],
    ['a JSON number JavaScript writes with an exponent', property({ type: 'number', fieldType: 'number' }), 1e21, 'INVALID_NUMBER'],
  ])('when %s is written, then the problem is %s', (_case, definition, value, code) => {
    expect(valueProblem('contacts', definition, value)?.code ?? null).toBe(code);
  });

  it('when another object type has a property named email, then any text fits it', () => {
    expect(valueProblem('deals', email, 'not an address')).toBeNull();
  });

  it.each([
    ['an ISO day to a date', date, '2024-01-01', '1704067200000'],
    ['an ISO date-time to a date-time', dateTime, '2024-05-01T12:30:17.883Z', '1714566617883'],
    ['an ISO date-time finer than a millisecond', dateTime, '2024-05-01T12:30:17.8839Z', '1714566617883'],
    ['epoch milliseconds to a date-time', dateTime, '1714566617883', '1714566617883'],
    ['an ISO date-time an hour ahead of UTC', dateTime, '2024-05-01T13:30:17.883+01:00', '1714566617883'],
    ['an ISO date-time behind UTC, on the day before', dateTime, '2024-04-30T23:30:17.883-13:00', '1714566617883'],
    ['a number to a text property', property({}), 42, '42'],
  ])('when %s is written, then it is stored as epoch milliseconds or text', (_case, definition, value, stored) => {
    expect(storedValue(definition, value)).toBe(stored);
  });

  it.each([
    ['a date not at midnight', date, 1430445600500, '1430445600500 is at 2:0:0.500 UTC, not midnight!'],
    ['a date given a date-time', date, '2024-01-01T10:00:00Z', '2024-01-01T10:00:00Z was not a valid long.'],
    [
      'a boolean given another word',
      property({ type: 'bool', fieldType: 'booleancheckbox' }),
      'tYES',
      'tYES was not one of the allowed options: [true, false]',
    ],
    ['an e-mail address without @', email, 'example.lcom', 'Email address example.lcom is invalid'],
  ])("when %s is refused, then the message is the hosted CRM's", (_case, definition, value, message) => {
    expect(valueProblem('contacts', definition, value)?.message).toBe(message);
  });

  it('when a value is outside the options, then the message names it and the options', () => {
    expect(valueProblem('deals', size, 'medium')?.message).toBe('"medium" was not one of the allowed options: [small, large]');
  });
});
