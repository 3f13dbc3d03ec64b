import { appNames, ownerLabel, ownerOf, parseStoreChoice, storeChoices, storeChoiceValue } from './store-owner';

const names = appNames([{ appId: 'app-1', appName: 'Shop connector' }]);

describe("a store's owner", () => {
  it.each([
    ['the store has no application', null, 'direct', "Portal's own (direct use)"],
    ['the store is an installed application whose name is known', 'app-1', 'app-1', 'Application Shop connector (app-1)'],
    ['the application is not (yet) among the installs', 'app-2', 'app-2', 'Application app-2'],
  ])('when %s, then it is labelled by its owner', (_when, appId, owner, label) => {
    expect(ownerOf(appId)).toBe(owner);
    expect(ownerLabel(ownerOf(appId), names)).toBe(label);
  });

  it.each([
    ['a direct store', 'direct/default', { owner: 'direct', storeId: 'default' }],
    ['an application store', 'app-1/web', { owner: 'app-1', storeId: 'web' }],
    ['a store id with a slash', 'app-1/a/b', { owner: 'app-1', storeId: 'a/b' }],
    ['no owner', 'default', undefined],
    ['an empty choice', '', undefined],
  ])('when the store choice is %s, then it reads back owner and store', (_when, value, parsed) => {
    expect(parseStoreChoice(value)).toEqual(parsed);
    if (parsed) expect(storeChoiceValue(parsed.owner, parsed.storeId)).toBe(value);
  });

  it('when a portal and its application both have a default store, then the filter offers one choice each, labelled by owner, the portal first', () => {
    const stores = [
      { appId: 'app-1', storeId: 'default' },
      { appId: null, storeId: 'default' },
      { appId: null, storeId: 'default' },
    ];
    expect(storeChoices(stores, names)).toEqual([
      ['direct/default', "default · Portal's own (direct use)"],
      ['app-1/default', 'default · Application Shop connector (app-1)'],
    ]);
  });
});
