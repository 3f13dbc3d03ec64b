import { sealedFirstForm } from '../../support';
import { isSealed, keyList, SecretBox, sealedFor } from '@ecomm-sync/data-access';

const KEY = 'current-secrets-key-0123456789';
const OLD = 'previous-secrets-key-0123456789';
const portalToken = sealedFor.builtinCrmToken(7);

describe('SecretBox', () => {
  const box = new SecretBox(KEY, [OLD]);

  it('when a secret is sealed, then it opens for what it was sealed for, and its form names the key', () => {
    const sealed = box.seal('crm-token-1', portalToken);

    expect(sealed).toMatch(new RegExp(`^v2\\.${box.keyId}\\.`));
    expect(sealed).not.toContain('crm-token-1');
    expect(box.open(sealed, portalToken)).toBe('crm-token-1');
    expect(box.needsReseal(sealed)).toBe(false);
  });

  it.each([
    ['another portal', sealedFor.builtinCrmToken(8)],
    ['another field of the same portal', sealedFor.crmConnection(7, 'token')],
    ['an application', sealedFor.appClientSecret('7')],
  ])('when a sealed value is moved to %s, then it fails to open', (_case, context) => {
    expect(() => box.open(box.seal('crm-token-1', portalToken), context)).toThrow();
  });

  it.each<[string, (sealed: string) => string, RegExp]>([
    ['a changed byte', (sealed) => `${sealed.slice(0, -6)}${sealed.slice(-6, -5) === 'A' ? 'B' : 'A'}${sealed.slice(-5)}`, /./],
    ['an unknown key id', (sealed) => sealed.replace(/^v2\.[^.]+\./, 'v2.AAAAAAAA.'), /key AAAAAAAA, which this service does not have/],
    ['no sealed form', () => 'crm-token-in-clear', /not a sealed secret/],
  ])('when a value has %s, then it fails to open', (_case, spoil, message) => {
    expect(() => box.open(spoil(box.seal('crm-token-1', portalToken)), portalToken)).toThrow(message);
  });

  it('when the key was rotated, then values sealed under the previous key still open and need sealing again', () => {
    const sealedBefore = new SecretBox(OLD).seal('crm-token-1', portalToken);

    expect(box.open(sealedBefore, portalToken)).toBe('crm-token-1');
    expect(box.needsReseal(sealedBefore)).toBe(true);
    expect(() => new SecretBox(KEY).open(sealedBefore, portalToken)).toThrow(/does not have/);
  });

  it('when a value is of the first form, then it opens under the current or a previous key and needs sealing again', () => {
    expect(box.open(sealedFirstForm('crm-token-1', KEY), portalToken)).toBe('crm-token-1');
    expect(box.open(sealedFirstForm('crm-token-2', OLD), portalToken)).toBe('crm-token-2');
    expect(box.needsReseal(sealedFirstForm('crm-token-1', KEY))).toBe(true);
    expect(() => box.open(sealedFirstForm('x', 'some-other-secrets-key-000'), portalToken)).toThrow(/no key this service has/);
  });

  it('when two boxes have different keys, then their key ids differ; the same key gives the same id', () => {
    expect(new SecretBox(KEY).keyId).toBe(box.keyId);
    expect(new SecretBox(OLD).keyId).not.toBe(box.keyId);
  });

  it('when the key is shorter than 16 characters, then the box refuses it', () => {
    expect(() => new SecretBox('short')).toThrow(/at least 16/);
  });

  it.each([
    [undefined, []],
    ['', []],
    [' a-key-0123456789abcdef , ,b-key-0123456789abcdef', ['a-key-0123456789abcdef', 'b-key-0123456789abcdef']],
  ])('when SECRETS_PREVIOUS_KEYS is %j, then the list is %j', (value, list) => {
    expect(keyList(value)).toEqual(list);
  });

  it.each([
    ['v2.abc.xyz', true],
    ['v1.xyz', true],
    ['plain', false],
  ])('when a stored value is %j, then isSealed is %s', (value, sealed) => {
    expect(isSealed(value)).toBe(sealed);
  });
});
