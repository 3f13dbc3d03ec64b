import { refusedAnswer } from './refused-answer';

describe('refusedAnswer', () => {
  it.each([
    [
      'a 301 with its target',
      301,
      'https://receiver.example/hook',
      true,
      'answered 301, a redirect to https://receiver.example/hook: redirects are not followed, set the address to where it leads',
    ],
    ['a 307 without a target', 307, undefined, true, 'answered 307, a redirect: redirects are not followed, set the address to where it leads'],
    [
      'a redirect to a very long target',
      302,
      `https://r.example/${'x'.repeat(300)}`,
      true,
      expect.stringMatching(/^answered 302, a redirect to https:\/\/r\.example\/x{182}…: /),
    ],
    ['a 400', 400, undefined, true, 'answered 400'],
    ['a 404', 404, undefined, true, 'answered 404'],
    ['a 408 (the receiver timed out)', 408, undefined, false, 'answered 408'],
    ['a 429 (too many requests)', 429, undefined, false, 'answered 429'],
    ['a 500', 500, undefined, false, 'answered 500'],
    ['a 503', 503, undefined, false, 'answered 503'],
  ])('when the receiver answers %s, then final is %s and the reason says so', (_case, status, location, final, error) => {
    expect(refusedAnswer(status, location)).toEqual({ final, error });
  });
});
