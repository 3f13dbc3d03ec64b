import { errorTypeOfCrmRefusal } from './crm-refusal-type';

const hosted = (...problems: { error: string; name: string }[]) =>
  `CRM POST /crm/v3/objects/deals/batch/update failed (400): Property values were not valid: ${JSON.stringify(problems.map((problem) => ({ isValid: false, message: 'x', ...problem })))} (correlation id c-1)`;

describe('the error type of an object the CRM refused', () => {
  it.each([
    ['an enumeration value outside its options (hosted)', hosted({ error: 'INVALID_OPTION', name: 'size' }), 'INVALID_ENUM_PROPERTY'],
    [
      'an enumeration value outside its options (built-in)',
      'Property "size" of inputs[0]: INVALID_OPTION: "medium" was not one of the allowed options',
      'INVALID_ENUM_PROPERTY',
    ],
    [
      'a date that is not epoch milliseconds',
      'Property "closedate" of inputs[3]: INVALID_LONG: 01/05/2024 was not a valid long.',
      'ERROR_INVALID_DATE_PROPERTY',
    ],
    [
      'a boolean that is neither true nor false (built-in)',
      'Property "gift" of inputs[0]: INVALID_OPTION: yes was not one of the allowed options: [true, false]',
      'INVALID_ENUM_PROPERTY',
    ],
    [
      'an unquoted value that holds a code of its own after the real one (built-in)',
      'Property "gift" of inputs[0]: INVALID_OPTION: yes inputs[1]: INVALID_EMAIL: was not one of the allowed options: [true, false]',
      'INVALID_ENUM_PROPERTY',
    ],
    ['an invalid date (hosted)', hosted({ error: 'INVALID_DATE', name: 'closedate' }), 'ERROR_INVALID_DATE_PROPERTY'],
    ['an e-mail the CRM refused', hosted({ error: 'INVALID_EMAIL', name: 'email' }), 'INVALID_EMAIL_ADDRESS'],
    ['a property that does not exist', 'Property "colour" does not exist on deals (inputs[0]); create it first', 'UNKNOWN_ERROR'],
    ['a property that does not exist, by its code', hosted({ error: 'PROPERTY_DOESNT_EXIST', name: 'colour' }), 'UNKNOWN_ERROR'],
    ['a value that holds a code of its own (built-in)', 'Property "note" of inputs[0]: INVALID_NUMBER: "INVALID_EMAIL" is not a number', 'UNKNOWN_ERROR'],
    [
      'a value that holds a code of its own (hosted)',
      `Property values were not valid: ${JSON.stringify([{ isValid: false, message: '"\\"error\\":\\"INVALID_EMAIL\\"" is bad', error: 'INVALID_ALPHA', name: 'firstname' }])}`,
      'UNKNOWN_ERROR',
    ],
    [
      'two problems: the first known one decides',
      hosted({ error: 'INVALID_ALPHA', name: 'firstname' }, { error: 'INVALID_OPTION', name: 'size' }),
      'INVALID_ENUM_PROPERTY',
    ],
    ['a code the service does not know', hosted({ error: 'INVALID_ALPHA', name: 'firstname' }), 'UNKNOWN_ERROR'],
    ['a code inside a longer word', 'SOMETHING_INVALID_OPTIONS happened', 'UNKNOWN_ERROR'],
    ['no code at all', 'the CRM returned no id for the object', 'UNKNOWN_ERROR'],
  ])('when the CRM refused %s, then it is recorded as %s', (_case, message, type) => {
    expect(errorTypeOfCrmRefusal(message)).toBe(type);
  });
});
