import { numberPropertiesOf, numbersNotPlain } from './number-properties';

describe('values of the CRM number properties', () => {
  const numbers = numberPropertiesOf([
    { name: 'amount', type: 'number' },
    { name: 'dealname', type: 'string' },
  ]);

  it.each<[string, Record<string, string | null>, { name: string; value: string }[]]>([
    ['when a number is digits with a minus and a point, then it is taken', { amount: '-4.68' }, []],
    ['when a number is cleared, then it is taken', { amount: null }, []],
    ['when a number has an exponent, then it is named', { amount: '1e3' }, [{ name: 'amount', value: '1e3' }]],
    ['when a number has a decimal comma, then it is named', { amount: '4,68' }, [{ name: 'amount', value: '4,68' }]],
    ['when a number has a space, then it is named', { amount: ' 5' }, [{ name: 'amount', value: ' 5' }]],
    ['when a text property has anything, then it is taken', { dealname: '1e3' }, []],
  ])('%s', (_case, properties, expected) => {
    expect(numbersNotPlain(properties, numbers)).toEqual(expected);
  });
});
