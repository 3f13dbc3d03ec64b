import type { ObjectType } from '@ecomm-sync/contracts';
import { aMappedChange, aTenant } from '@ecomm-sync/testing';
import { addToGroups, byDependencyLevel, type ChangeGroup } from './change-group';

function groupsOf(types: ObjectType[]): ChangeGroup[] {
  const groups = new Map<string, ChangeGroup>();
  const tenant = aTenant();
  for (const objectType of types) addToGroups(groups, { tenant, storeId: 'default', objectType }, [aMappedChange({ externalObjectId: `${objectType}-1` })]);
  return [...groups.values()];
}

describe('byDependencyLevel', () => {
  it.each<[ObjectType[], ObjectType[][]]>([
    [
      ['LINE_ITEM', 'DEAL', 'PRODUCT', 'CONTACT'],
      [['CONTACT', 'PRODUCT'], ['DEAL'], ['LINE_ITEM']],
    ],
    [
      ['LINE_ITEM', 'PRODUCT'],
      [['PRODUCT'], ['LINE_ITEM']],
    ],
    [['DEAL'], [['DEAL']]],
    [
      ['LINE_ITEM', 'CONTACT'],
      [['CONTACT'], ['LINE_ITEM']],
    ],
    [[], []],
  ])('when the groups are of %j, then the levels are %j', (types, levels) => {
    expect(byDependencyLevel(groupsOf(types)).map((level) => level.map((group) => group.objectType))).toEqual(levels);
  });
});
