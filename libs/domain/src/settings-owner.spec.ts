import { decodeSettingsOwner, describeSettingsOwner, encodeSettingsOwner, settingsOwnerData, settingsOwnerOf, type SettingsOwner } from './settings-owner';

describe('settings owner', () => {
  it.each<[string, { portalId: number; appId: string | null }, SettingsOwner, string, string, object]>([
    [
      'an application tenant',
      { portalId: 7, appId: 'shop-app' },
      { kind: 'app', appId: 'shop-app' },
      'app:shop-app',
      'application shop-app',
      { appId: 'shop-app' },
    ],
    ['an application id with a colon', { portalId: 7, appId: 'a:b' }, { kind: 'app', appId: 'a:b' }, 'app:a:b', 'application a:b', { appId: 'a:b' }],
    ['a direct-mode tenant', { portalId: 42, appId: null }, { kind: 'portal', portalId: 42 }, 'portal:42', 'portal 42', { portalId: 42, appId: null }],
  ])('when the tenant is %s, then its owner encodes, decodes back, reads and selects its data as expected', (_case, tenant, owner, text, description, data) => {
    expect(settingsOwnerOf(tenant)).toEqual(owner);
    expect(encodeSettingsOwner(owner)).toBe(text);
    expect(decodeSettingsOwner(text)).toEqual(owner);
    expect(describeSettingsOwner(owner)).toBe(description);
    expect(settingsOwnerData(owner)).toEqual(data);
  });

  it.each(['', 'app', 'app:', 'portal:', 'portal:x1', 'portal:-1', 'portal:1.5', 'user:1', ':1', 'APP:x'])(
    'when the text is "%s", then decoding it throws, naming it',
    (text) => {
      expect(() => decodeSettingsOwner(text)).toThrow(`not a settings owner: ${text}`);
    },
  );
});
