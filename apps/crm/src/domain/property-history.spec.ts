import { HISTORY_LIMIT, historyAnswer, historyEntry, initialHistory, type PropertyHistory } from './property-history';

const at = (second: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, second));
const entry = (value: string, second: number) => historyEntry(value, at(second));
const answered = (value: string, second: number) => ({ value, timestamp: at(second).toISOString(), sourceType: 'API' });

describe('historyEntry', () => {
  it.each([
    ['when a value is written, then the entry holds it, from the API', 'Ada', 'Ada'],
    ['when a value is cleared, then the entry holds the empty string', null, ''],
  ])('%s', (_case, value, stored) => {
    expect(historyEntry(value, at(1))).toEqual({ value: stored, timestamp: at(1), sourceType: 'API' });
  });
});

describe('initialHistory', () => {
  it.each([
    ['when an object is created with values, then each starts its history', { firstname: 'Ada', lastname: 'Lovelace' }, ['firstname', 'lastname']],
    ['when a created value is null, then it has no history', { firstname: 'Ada', lastname: null }, ['firstname']],
    ['when an object is created without values, then there is no history', {}, []],
  ])('%s', (_case, properties, names) => {
    const history = initialHistory(properties, at(1));
    expect(Object.keys(history)).toEqual(names);
    for (const name of names) expect(history[name]).toEqual([entry(properties[name as keyof typeof properties]!, 1)]);
  });
});

describe('historyAnswer', () => {
  const stored: PropertyHistory = { amount: [entry('10', 1), entry('12', 2), entry('15', 2)], dealname: [entry('Order', 1)] };
  const long: PropertyHistory = { amount: Array.from({ length: HISTORY_LIMIT + 5 }, (_, i) => entry(String(i), i)) };
  it.each([
    [
      'when a property was written three times, then its values are newest first, two in one second in the order written',
      stored,
      ['amount'],
      { amount: [answered('15', 2), answered('12', 2), answered('10', 1)] },
    ],
    ['when two properties are asked, then each is answered', stored, ['dealname', 'amount'], { dealname: [answered('Order', 1)], amount: expect.any(Array) }],
    ['when a property has no history, then it answers an empty list', stored, ['closedate'], { closedate: [] }],
    ['when the object has no history at all, then each asked name answers an empty list', undefined, ['amount'], { amount: [] }],
    ['when a name is an Object.prototype key, then it finds nothing there', stored, ['constructor'], { constructor: [] }],
    [
      'when more values are stored than the limit, then the newest HISTORY_LIMIT are answered',
      long,
      ['amount'],
      { amount: Array.from({ length: HISTORY_LIMIT }, (_, i) => answered(String(HISTORY_LIMIT + 4 - i), HISTORY_LIMIT + 4 - i)) },
    ],
  ])('%s', (_case, history, names, answer) => {
    expect(historyAnswer(history, names)).toEqual(answer);
  });
});
