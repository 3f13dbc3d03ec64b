import { ADMIN_COMMANDS, runAdminCommand, UsageError, withSecretsFromStdin } from './admin-commands';
import { everyPage, pageSizeOf } from './admin-listing';

const crmConnection = (...args: string[]) => ADMIN_COMMANDS.portals['crm-connection'].build(args);

describe('admin portals crm-connection', () => {
  it.each([
    ['show', ['7', 'show'], { method: 'get', path: '/admin/v1/portals/7/crm-connection' }],
    ['builtin', ['7', '--kind', 'builtin'], { method: 'put', path: '/admin/v1/portals/7/crm-connection', body: { kind: 'builtin' } }],
    [
      'hosted with a private-app token and a tier',
      ['7', '--kind', 'hosted', '--base-url', 'https://crm.example.com', '--token', 'pat-1', '--tier', 'professional'],
      {
        method: 'put',
        path: '/admin/v1/portals/7/crm-connection',
        body: { kind: 'hosted', baseUrl: 'https://crm.example.com', auth: { type: 'private-app', token: 'pat-1' }, tier: 'professional' },
      },
    ],
    [
      'hosted with OAuth and every limit',
      [
        '7',
        '--kind',
        'hosted',
        '--base-url',
        'https://crm.example.com',
        '--client-id',
        'c',
        '--client-secret',
        's',
        '--refresh-token',
        'r',
        '--burst-per-10s',
        '150',
        '--daily-cap',
        'none',
        '--time-zone',
        'Europe/Berlin',
        '--search-per-second',
        '4',
      ],
      {
        method: 'put',
        path: '/admin/v1/portals/7/crm-connection',
        body: {
          kind: 'hosted',
          baseUrl: 'https://crm.example.com',
          auth: { type: 'oauth', clientId: 'c', clientSecret: 's', refreshToken: 'r' },
          limits: { burstPer10s: 150, dailyCap: null, timeZone: 'Europe/Berlin', searchPerSecond: 4 },
        },
      },
    ],
  ])('when given %s, then it makes that request', (_name, args, expected) => {
    expect(crmConnection(...args)).toEqual(expected);
  });

  it.each([
    ['no portal id', []],
    ['no kind', ['7', '--tier', 'starter']],
    ['an unknown option', ['7', '--kind', 'builtin', '--colour', 'red']],
    ['an option without its value', ['7', '--kind', 'hosted', '--token']],
    ['a burst that is not a number', ['7', '--kind', 'builtin', '--burst-per-10s', 'many']],
    [
      'a private app token and OAuth credentials at once',
      [
        '7',
        '--kind',
        'hosted',
        '--base-url',
        'https://api.crm.example.com',
        '--client-id',
        'app',
        '--client-secret',
        's',
        '--refresh-token',
        'r',
        '--token',
        't',
      ],
    ],
  ])('when given %s, then it is a usage error', (_name, args) => {
    expect(() => crmConnection(...args)).toThrow(UsageError);
  });
});

describe('admin command names', () => {
  it.each([
    ['toString', 'call'],
    ['constructor', 'name'],
    ['__proto__', 'valueOf'],
    ['portals', 'hasOwnProperty'],
  ])('when the command is "%s %s" (Object.prototype members), then it is a usage error and nothing is sent', async (resource, action) => {
    await expect(runAdminCommand('http://127.0.0.1:9', 'token', [resource, action])).rejects.toThrow(UsageError);
  });
});

describe('secrets from standard input', () => {
  const stdin = (text: string) => async () => text;

  it.each([
    ['a token given as -', ['7', '--kind', 'hosted', '--token', '-'], 'pat-1\n', ['7', '--kind', 'hosted', '--token', 'pat-1']],
    [
      'two OAuth secrets given as -, one line each in order',
      ['7', '--client-id', 'c', '--client-secret', '-', '--refresh-token', '-'],
      's3cret\r\nrefresh-1\n',
      ['7', '--client-id', 'c', '--client-secret', 's3cret', '--refresh-token', 'refresh-1'],
    ],
    ['no secret given as -', ['7', '--kind', 'hosted', '--token', 'pat-2'], 'unread', ['7', '--kind', 'hosted', '--token', 'pat-2']],
    ['a - that is not a secret’s value', ['7', '--time-zone', '-'], 'unread', ['7', '--time-zone', '-']],
  ])('when given %s, then each - becomes its line of standard input', async (_case, args, input, expected) => {
    expect(await withSecretsFromStdin(args, stdin(input))).toEqual(expected);
  });

  it('when fewer lines come than secrets given as -, then it is a usage error that says which line is missing', async () => {
    await expect(withSecretsFromStdin(['7', '--client-secret', '-', '--refresh-token', '-'], stdin('only-one\n'))).rejects.toThrow(
      /--refresh-token - reads its value from standard input.*line 2 is missing/,
    );
  });

  it('when no secret is given as -, then standard input is not read', async () => {
    let read = false;
    await withSecretsFromStdin(['7', '--kind', 'builtin'], async () => {
      read = true;
      return '';
    });
    expect(read).toBe(false);
  });
});

describe('admin listings a page at a time', () => {
  const pages: Record<string, object> = {
    first: { results: [1, 2], paging: { next: { after: 'b' } } },
    b: { results: [3], paging: { next: { after: 'c' } } },
    c: { results: [4] },
  };
  const afterOf = (url: string) => new URL(url).searchParams.get('after') ?? 'first';

  it('when pages follow one another, then every one is asked for with the page size, and their records come in order', async () => {
    const asked: string[] = [];
    const results = await everyPage(async (url) => (asked.push(url), pages[afterOf(url)]), 'http://gw/admin/v1/apps?developerId=7', 2);
    expect(results).toEqual([1, 2, 3, 4]);
    expect(asked).toEqual([
      'http://gw/admin/v1/apps?developerId=7&limit=2',
      'http://gw/admin/v1/apps?developerId=7&limit=2&after=b',
      'http://gw/admin/v1/apps?developerId=7&limit=2&after=c',
    ]);
  });

  it('when a gateway names a page it answered already, then the listing stops with an error rather than asking for ever', async () => {
    const cycle: Record<string, object> = { first: { results: [1], paging: { next: { after: 'b' } } }, b: { results: [2], paging: { next: { after: 'b' } } } };
    await expect(everyPage(async (url) => cycle[afterOf(url)], 'http://gw/admin/v1/portals', 1)).rejects.toThrow(/named the page after "b" again/);
  });

  it.each([
    ['credentials', 'list', 'portal', '7', '--page-size', '10'],
    ['portals', 'show', '7', '--page-size', '10'],
    ['credentials', 'list', 'app', 'a-1', '--page-size=10'],
  ])('when --page-size is given to %s %s, which is not paged, then it is a usage error, before any request', async (...words) => {
    await expect(runAdminCommand('http://127.0.0.1:9', 'token', words)).rejects.toThrow(
      new UsageError(
        `--page-size applies to the listings that come a page at a time (portals, developers, apps, installs list), not to ${words[0]} ${words[1]}`,
      ),
    );
  });

  it.each(['0', '1001', 'ten', ''])('when --page-size is %j, then it is a usage error', (size) => {
    expect(() => pageSizeOf(['--page-size', size])).toThrow(UsageError);
    expect(() => pageSizeOf([`--page-size=${size}`])).toThrow(UsageError);
  });

  it.each([
    [['7', '--page-size', '10'], { pageSize: 10, rest: ['7'] }],
    [['--page-size=10', '7'], { pageSize: 10, rest: ['7'] }],
    [['7'], { pageSize: 1000, rest: ['7'] }],
  ])('when a listing is given %j, then its page size and other arguments are %j', (args, expected) => {
    expect(pageSizeOf(args)).toEqual(expected);
  });

  it('when --page-size is given twice, then it is a usage error rather than an argument of the listing', () => {
    expect(() => pageSizeOf(['--page-size', '10', '--page-size', '20'])).toThrow(new UsageError('--page-size is given more than once; give it once'));
  });
});
