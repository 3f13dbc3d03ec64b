import { datePropertiesOf, datesOffMidnight } from './date-properties';

describe('values of the CRM date properties (a day, no time)', () => {
  const dates = datePropertiesOf([
    { name: 'birthday', type: 'date' },
    { name: 'closedate', type: 'datetime' },
    { name: 'size', type: 'enumeration' },
  ]);

  it('when the CRM lists its properties, then only those of type date are date properties', () => {
    expect([...dates]).toEqual(['birthday']);
  });

  it.each<[string, Record<string, string | null>, { name: string; value: string }[]]>([
    ['when a date is midnight UTC, then it is taken', { birthday: '1430438400000' }, []],
    ['when a date before 1970 is midnight UTC, then it is taken', { birthday: '-86400000' }, []],
    ['when a date has a time of day, then it is named', { birthday: '1430438400001' }, [{ name: 'birthday', value: '1430438400001' }]],
    ['when a date before 1970 has a time of day, then it is named', { birthday: '-1' }, [{ name: 'birthday', value: '-1' }]],
    [
      'when a date of 16 digits is a millisecond past midnight, then it is named',
      { birthday: '9007199308800001' },
      [{ name: 'birthday', value: '9007199308800001' }],
    ],
    ['when a date is cleared, then it is taken', { birthday: null }, []],
    ['when a date time has a time of day, then it is taken', { closedate: '1430438400001' }, []],
    ['when a date is not epoch milliseconds, then it is left to the conversion', { birthday: '2015-05-01' }, []],
  ])('%s', (_case, properties, expected) => {
    expect(datesOffMidnight(properties, dates)).toEqual(expected);
  });
});
