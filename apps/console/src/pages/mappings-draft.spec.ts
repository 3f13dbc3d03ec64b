import type { V2Settings } from '@ecomm-sync/contracts';
import { isUnset, NO_SETTINGS, reapplyAfterSave } from './mappings-draft';

const settings = (enabled: boolean, contact: [string, string][] = [['mail', 'email']]): V2Settings => ({
  ...NO_SETTINGS,
  enabled,
  mappings: {
    ...NO_SETTINGS.mappings,
    CONTACT: { properties: contact.map(([externalPropertyName, crmPropertyName]) => ({ externalPropertyName, crmPropertyName, dataType: 'STRING' as const })) },
  },
});

describe('isUnset', () => {
  it.each<[string, V2Settings, boolean]>([
    ['as the gateway answers before any PUT', NO_SETTINGS, true],
    ['enabled with nothing mapped', { ...NO_SETTINGS, enabled: true }, false],
    ['with a webhook only', { ...NO_SETTINGS, webhookUri: 'https://shop.example.com/import' }, false],
    ['disabled with a mapping', settings(false), false],
  ])('when settings are %s, then isUnset is %s', (_case, given, unset) => {
    expect(isUnset(given)).toBe(unset);
  });
});

describe('reapplyAfterSave', () => {
  it.each<[string, V2Settings | null, V2Settings, ReturnType<typeof reapplyAfterSave>]>([
    ['settings are saved disabled', settings(true), settings(false, [['e', 'email']]), 'disabled'],
    ['the first settings are saved enabled', null, settings(true), 'expected'],
    ['disabled settings are enabled', settings(false), settings(true), 'expected'],
    ['a mapping changed', settings(true), settings(true, [['e-mail', 'email']]), 'expected'],
    [
      'the same mappings are saved in another order',
      settings(true, [
        ['a', 'email'],
        ['b', 'firstname'],
      ]),
      settings(true, [
        ['b', 'firstname'],
        ['a', 'email'],
      ]),
      'nothing-changed',
    ],
    ['nothing changed', settings(true), settings(true), 'nothing-changed'],
  ])('when %s, then the page expects what the table says', (_case, before, after, expected) => {
    expect(reapplyAfterSave(before, after)).toBe(expected);
  });
});
