import { shownDestination, withUrlsShown } from './alert-destination';

describe('how an alert destination is shown once added', () => {
  it.each([
    ['an e-mail address', 'email', 'ops@shop.example', 'ops@shop.example'],
    ['a Slack incoming webhook', 'slack', 'https://hooks.slack.com/services/T0001/B0002/abcdefghijklmnopqrstuvwx', 'https://hooks.slack.com/…uvwx'],
    ['a webhook with a token in its query', 'webhook', 'https://hooks.shop.example/alerts?token=s3cr3t-v4lue', 'https://hooks.shop.example/…4lue'],
    ['a webhook on a port, with a path', 'webhook', 'http://127.0.0.1:8080/alerts', 'http://127.0.0.1:8080/…erts'],
    ['a webhook at its host alone', 'webhook', 'https://hooks.shop.example/', 'https://hooks.shop.example'],
    ['a webhook with a user and password', 'webhook', 'https://user:pass@hooks.shop.example/a', 'https://hooks.shop.example/…le/a'],
    ['a URL that does not parse', 'webhook', 'not a url', '…'],
  ] as const)('when it is %s, then only what does not let anyone send to it is shown', (_case, kind, target, shown) => {
    expect(shownDestination(kind, target)).toBe(shown);
  });
});

describe('a failed notice reason, as tenants read it', () => {
  it.each([
    [
      'a reason stored with the whole URL',
      'slack https://hooks.slack.com/services/T0001/B0002/abcdefghijklmnopqrstuvwx: answered 404 after 1 attempt',
      'slack https://hooks.slack.com/…uvwx: answered 404 after 1 attempt',
    ],
    [
      'a reason already shown so',
      'webhook https://hooks.shop.example/…erts: answered 503 after 3 attempts',
      'webhook https://hooks.shop.example/…erts: answered 503 after 3 attempts',
    ],
    [
      'a reason naming no URL',
      'email ops@shop.example: no SMTP server is configured (ALERT_SMTP_URL) after 1 attempt',
      'email ops@shop.example: no SMTP server is configured (ALERT_SMTP_URL) after 1 attempt',
    ],
    ['a URL at the end', 'refused https://hooks.shop.example/a/b?token=xyz1', 'refused https://hooks.shop.example/…xyz1'],
  ])('when it is %s, then every URL in it is shown by its origin and last characters', (_case, text, shown) => {
    expect(withUrlsShown(text)).toBe(shown);
  });
});
