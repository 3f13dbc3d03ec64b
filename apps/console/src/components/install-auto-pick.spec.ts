import { installToAutoPick } from './install-auto-pick';

describe('the install a picker chooses by itself', () => {
  it.each([
    ['the only install is loaded and nothing was chosen yet', '101', '', ['101'], false],
    ['the installs are still loading', undefined, '', [], false],
    ['there are several installs', undefined, '', ['101', '102'], false],
    ['one is chosen already (from the URL, or picked)', undefined, '101', ['101'], false],
    ['the user cleared the pick ("Pick a portal")', undefined, '', ['101'], true],
  ])('when %s, then it picks %p', (_when, picked, value, choices, chosenBefore) => {
    expect(installToAutoPick(value, choices, chosenBefore)).toBe(picked);
  });
});
