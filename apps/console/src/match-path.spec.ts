import { matchPath } from './match-path';

describe('matchPath', () => {
  it.each([
    ['a path of the pattern', '/console/portals/7/errors', { portalId: '7' }],
    ['an escaped value', '/console/portals/a%20b/errors', { portalId: 'a b' }],
    ['a broken escape (a link cut short)', '/console/portals/%E2/errors', null],
    ['another path', '/console/portals/7/stores', null],
  ])('when the path is %s, then it answers its parameters or no match', (_case, path, expected) => {
    expect(matchPath('/console/portals/:portalId/errors', path)).toEqual(expected);
  });
});
