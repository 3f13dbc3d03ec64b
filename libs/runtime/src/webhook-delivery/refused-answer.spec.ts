import { refusedAnswer } from './refused-answer';

const advice = 'redirects are not followed, set the address to where it leads';

describe('refusedAnswer', () => {
  it.each([
    [
      'a 301 to a URL whose path may be a credential',
      301,
      'https://hooks.slack.com/services/T0/B0/secret-token',
      true,
      `answered 301, a redirect to https://hooks.slack.com/…oken: ${advice}`,
    ],
    ['a 308 to an origin', 308, 'https://receiver.example/', true, `answered 308, a redirect to https://receiver.example: ${advice}`],
    ['a 302 to a relative target', 302, '/elsewhere/secret', true, `answered 302, a redirect: ${advice}`],
    ['a 307 without a target', 307, undefined, true, `answered 307, a redirect: ${advice}`],
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
