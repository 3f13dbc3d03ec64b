import { markedInputError, splitMarkedInputs } from './marked-inputs';

describe('splitMarkedInputs', () => {
  const a = { properties: { email: 'a@example.com' } };
  const b = { properties: { email: '__invalid__', firstname: 'B' }, objectWriteTraceId: 'trace-b' };
  const c = { properties: { firstname: '__invalid__' } };
  const d = { properties: { firstname: '__INVALID__' } };
  it.each([
    ['when there is no marker, then every input is applied', [a, b, c], undefined, [a, b, c], []],
    ['when an input holds the marker, then it is marked by that property', [a, b], '__invalid__', [a], [{ input: b, property: 'email' }]],
    ['when the marker is in another property, then that one is named', [c, a], '__invalid__', [a], [{ input: c, property: 'firstname' }]],
    ['when a value differs in case, then it is not the marker', [d], '__invalid__', [d], []],
    [
      'when every input is marked, then none is applied',
      [b, c],
      '__invalid__',
      [],
      [
        { input: b, property: 'email' },
        { input: c, property: 'firstname' },
      ],
    ],
  ] as const)('%s', (_case, inputs, marker, valid, marked) => {
    expect(splitMarkedInputs(inputs, marker)).toEqual({ valid, marked });
  });
});

describe('markedInputError', () => {
  it.each([
    ['when the input has a trace id, then the context carries it', { properties: {}, objectWriteTraceId: 't-1' }, { objectWriteTraceId: ['t-1'] }],
    ['when it has none, then the context is empty', { properties: {} }, {}],
  ])('%s', (_case, input, context) => {
    expect(markedInputError(input, 'email', '__invalid__')).toEqual({
      status: 'error',
      category: 'VALIDATION_ERROR',
      message:
        'Property values were not valid: [{"isValid":false,"message":"\\"__invalid__\\" is marked invalid for this account (its invalidMarker)","error":"INVALID_VALUE","name":"email"}]',
      context,
    });
  });
});
