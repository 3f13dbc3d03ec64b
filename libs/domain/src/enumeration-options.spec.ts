import { enumerationsOf, valuesOutsideOptions } from './enumeration-options';

const enumerations = enumerationsOf('CONTACT', [
  { name: 'size', type: 'enumeration', fieldType: 'select', options: [{ value: 'S' }, { value: 'M' }, { value: 'L' }] },
  { name: 'colours', type: 'enumeration', fieldType: 'checkbox', options: [{ value: 'red' }, { value: 'blue' }] },
  { name: 'dealstage', type: 'enumeration', fieldType: 'select', options: [] },
  { name: 'note', type: 'string', fieldType: 'text' },
]);

describe('values outside an enumeration’s options (what the CRM refuses with INVALID_OPTION)', () => {
  it.each<[string, Record<string, string | null>, string[]]>([
    ['when a value is one of the options, then it is taken', { size: 'M' }, []],
    ['when a value is not one of the options, then it is named', { size: 'XL' }, ['size: XL']],
    ['when a value differs from an option only in case, then it is outside (values match exactly)', { size: 'm' }, ['size: m']],
    ['when a checkbox gets several options joined by ;, then each is checked', { colours: 'red;blue' }, []],
    ['when one of a checkbox’s values is not an option, then that one is named', { colours: 'red;green' }, ['colours: green']],
    ['when a checkbox value has empty parts (;blue adds to what is set), then they are not values', { colours: ';blue;;red;' }, []],
    ['when a single-select value holds a ;, then it is one value, outside the options', { size: 'S;M' }, ['size: S;M']],
    ['when a value is empty or null, then it clears the property and is taken', { size: '', colours: null }, []],
    ['when an enumeration has no options (the pipelines hold a stage’s), then any value is taken', { dealstage: 'anything' }, []],
    ['when a property is not an enumeration, or unknown, then it is not checked here', { note: 'XL', other: 'XL' }, []],
  ])('%s', (_case, properties, expected) => {
    expect(valuesOutsideOptions(properties, enumerations).map(({ name, outside }) => `${name}: ${outside}`)).toEqual(expected);
  });
});

describe('the enumerations a dry run checks', () => {
  it('when a deal’s stage and pipeline carry options (the hosted CRM’s ids), then they are not checked: the service translates their values', () => {
    const deal = enumerationsOf('DEAL', [
      { name: 'dealstage', type: 'enumeration', options: [{ value: '1234567' }] },
      { name: 'pipeline', type: 'enumeration', options: [{ value: '89' }] },
      { name: 'channel', type: 'enumeration', options: [{ value: 'web' }] },
    ]);
    expect([...deal.keys()]).toEqual(['channel']);
    expect(valuesOutsideOptions({ dealstage: 'checkout_completed', pipeline: 'ecommerce', channel: 'shop' }, deal).map(({ name }) => name)).toEqual([
      'channel',
    ]);
  });
});
