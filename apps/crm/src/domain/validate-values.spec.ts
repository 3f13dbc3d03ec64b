import type { PropertyDefinition } from './object-types';
import { valueProblem } from './validate-values';

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
    ['a date that is not epoch milliseconds', property({ type: 'date', fieldType: 'date' }), '2024-01-01', 'INVALID_LONG'],
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
    expect(valueProblem(definition, value)?.code ?? null).toBe(code);
  });

  it('when a date is not at midnight, then the message names the time it was given', () => {
    expect(valueProblem(property({ type: 'date', fieldType: 'date' }), 1430445600500)?.message).toBe(
      '1430445600500 is at 02:00:00.500 UTC, not midnight: a date property takes midnight UTC of its day',
    );
  });

  it('when a value is outside the options, then the message names it and the options', () => {
    expect(valueProblem(size, 'medium')?.message).toBe('"medium" was not one of the allowed options: [small, large]');
  });
});
