import { convertValue } from './convert-value';

describe('convertValue', () => {
  it.each([
    ['STRING', 'text', 'text'],
    ['STRING', 42, '42'],
    ['STRING', 1e-7, '0.0000001'],
    ['STRING', true, 'true'],
    ['STRING', null, null],
    ['NUMBER', 9.5, '9.5'],
    ['NUMBER', '9.50', '9.5'],
    ['NUMBER', ' 12 ', '12'],
    ['NUMBER', '-3e2', '-300'],
    ['NUMBER', '12345678901234567890', '12345678901234567890'],
    ['NUMBER', '-0012345678901234567890', '-12345678901234567890'],
    ['NUMBER', '000000000000000000042', '42'],
    // A decimal of more digits than a double holds keeps them (Number() would round the last ones).
    ['NUMBER', '1234567890.1234567890', '1234567890.123456789'],
    ['NUMBER', '-00.12345678901234567', '-0.12345678901234567'],
    ['NUMBER', '12345678901234567890.', '12345678901234567890'],
    ['NUMBER', '0.0000000000000000001', '0.0000000000000000001'],
    // Never with an exponent: the hosted CRM refuses one in a number property.
    ['NUMBER', 1e21, '1000000000000000000000'],
    ['NUMBER', -1.5e-7, '-0.00000015'],
    ['NUMBER', '1e-7', '0.0000001'],
    ['NUMBER', '2.5e25', `25${'0'.repeat(24)}`],
    ['NUMBER', 5e-324, `0.${'0'.repeat(323)}5`],
    ['NUMBER', 123.456, '123.456'],
    ['NUMBER', '1.10000000000000000000', '1.1'],
    ['DATETIME', 1700000000000, '1700000000000'],
    ['DATETIME', '1700000000000', '1700000000000'],
    ['DATETIME', ' -86400000 ', '-86400000'],
    ['DATETIME', 8_640_000_000_000_000, '8640000000000000'],
    ['AVATAR_IMAGE', 'https://cdn.example.com/a.png', 'https://cdn.example.com/a.png'],
    ['AVATAR_IMAGE', null, null],
    // An empty string clears a number or a date, as the hosted CRM clears a property given "".
    ['NUMBER', '', null],
    ['DATETIME', '', null],
  ] as const)('%s accepts %p as %p', (dataType, value, expected) => {
    expect(convertValue(value, dataType)).toEqual({ ok: true, value: expected });
  });

  it.each([
    ['NUMBER', 'twelve', 'UNKNOWN_ERROR', /INVALID_NUMBER/],
    ['NUMBER', true, 'UNKNOWN_ERROR', /INVALID_NUMBER/],
    ['NUMBER', ' ', 'UNKNOWN_ERROR', /INVALID_NUMBER/],
    ['NUMBER', '1e400', 'UNKNOWN_ERROR', /INVALID_NUMBER: the number is beyond/],
    ['NUMBER', '-1e400', 'UNKNOWN_ERROR', /INVALID_NUMBER: the number is beyond/],
    ['NUMBER', '9'.repeat(400), 'UNKNOWN_ERROR', /INVALID_NUMBER: the number is beyond/],
    ['DATETIME', '2024-01-02T00:00:00Z', 'ERROR_INVALID_DATE_PROPERTY', /send 1704153600000 instead/],
    ['DATETIME', 1.5, 'ERROR_INVALID_DATE_PROPERTY', /epoch milliseconds/],
    ['DATETIME', 'soon', 'ERROR_INVALID_DATE_PROPERTY', /epoch milliseconds/],
    ['DATETIME', 1e20, 'ERROR_INVALID_DATE_PROPERTY', /INVALID_DATE: 100000000000000000000 epoch milliseconds is beyond any date/],
    ['DATETIME', '9999999999999999', 'ERROR_INVALID_DATE_PROPERTY', /is beyond any date/],
    ['DATETIME', -8_640_000_000_000_001, 'ERROR_INVALID_DATE_PROPERTY', /is beyond any date/],
    ['AVATAR_IMAGE', 'ftp://example.com/a.png', 'UNKNOWN_ERROR', /INVALID_IMAGE_URL/],
    ['AVATAR_IMAGE', 'not a url', 'UNKNOWN_ERROR', /INVALID_IMAGE_URL/],
  ] as const)('%s refuses %p with %s', (dataType, value, errorType, reason) => {
    const result = convertValue(value, dataType);
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.errorType).toBe(errorType);
      expect(result.reason).toMatch(reason);
    }
  });
});
