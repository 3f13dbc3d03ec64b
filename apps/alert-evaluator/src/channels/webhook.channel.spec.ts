import { idempotencyKey } from './webhook.channel';

describe('idempotencyKey', () => {
  it.each([
    ['when the id is a rule, a window and a destination, then it is sent as a quoted string', 'r-1:7:d-2', '"r-1:7:d-2"'],
    ['when the id holds a double quote, then the quote is escaped', 'r"1', '"r\\"1"'],
    ['when the id holds a backslash, then the backslash is escaped', 'r\\1', '"r\\\\1"'],
  ])('%s', (_name, id, expected) => {
    expect(idempotencyKey({ id })).toEqual({ 'idempotency-key': expected });
  });
});
