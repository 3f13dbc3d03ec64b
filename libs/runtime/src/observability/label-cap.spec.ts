import { accountLabel, LabelCap, OTHER_LABEL } from './label-cap';

describe('LabelCap', () => {
  it.each([
    ['values within the limit', ['a', 'b'], ['a', 'b']],
    ['a value seen before the limit was reached', ['a', 'b', 'c', 'a'], ['a', 'b', OTHER_LABEL, 'a']],
    ['new values past the limit', ['a', 'b', 'c', 'd'], ['a', 'b', OTHER_LABEL, OTHER_LABEL]],
  ])('when it gets %s, then it keeps at most two distinct values', (_case, raws, expected) => {
    const cap = new LabelCap(2);
    expect(raws.map((raw) => cap.value(raw))).toEqual(expected);
  });
});

describe('accountLabel', () => {
  it.each([
    ['when the account is the built-in CRM then the key is the label', 'builtin:42', 'builtin:42'],
    ['when a private app of a hosted CRM then the portal without the host', 'hosted:https://api.crm.example:8443:42', 'hosted:42'],
    ['when an OAuth app then the application and the portal without the host', 'hosted:https://api.crm.example:app:client-7:42', 'hosted:app:client-7:42'],
    ['when a bare base URL then only "hosted"', 'https://customer-crm.example/path', 'hosted'],
    ['when a hosted key ends in no portal then only "hosted"', 'hosted:https://api.crm.example', 'hosted'],
  ])('%s', (_case, account, label) => {
    expect(accountLabel(account)).toBe(label);
  });
});
