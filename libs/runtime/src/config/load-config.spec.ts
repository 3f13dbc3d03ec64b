import { ConfigError, loadConfig } from './load-config';
import { amqpKeys, mongoKeys } from './common-keys';

const schema = {
  PORT: { doc: 'port to listen on', format: 'port', default: 3000 },
  URL: { doc: 'where the broker is', format: 'url' },
  VERBOSE: { doc: 'log more', format: 'boolean', default: false },
  MODE: { doc: 'run mode', format: 'string', default: 'a', values: ['a', 'b'] },
  SECRET: { doc: 'a token', format: 'string', default: 'x', sensitive: true },
} as const;

describe('loadConfig', () => {
  it('applies defaults and coerces types', () => {
    expect(loadConfig(schema, { URL: 'amqp://h', PORT: '8080', VERBOSE: 'true' })).toEqual({
      PORT: 8080,
      URL: 'amqp://h',
      VERBOSE: true,
      MODE: 'a',
      SECRET: 'x',
    });
  });

  it.each([
    [{}, /URL is required but not set \(where the broker is\)/],
    [{ URL: 'amqp://h', PORT: '70000' }, /PORT must be <= 65535, got "70000" \(port to listen on\)/],
    [{ URL: 'not a url' }, /URL must match pattern/],
    [{ URL: 'amqp://h', MODE: 'c' }, /MODE must be equal to one of the allowed values/],
    [{ URL: 'amqp://h', SECRET: '' }, null],
  ])('names the wrong variable: %p', (env, message) => {
    if (message === null) return expect(() => loadConfig(schema, env)).not.toThrow();
    expect(() => loadConfig(schema, env)).toThrow(ConfigError);
    expect(() => loadConfig(schema, env)).toThrow(message);
  });

  it('never prints a sensitive value back', () => {
    const strict = { TOKEN: { doc: 'token', format: 'int', sensitive: true } } as const;
    expect(() => loadConfig(strict, { TOKEN: 'hunter2' })).toThrow(/TOKEN must be integer, got \(hidden\)/);
  });

  it.each([
    ['MONGO_URL', mongoKeys, 'mongodb://user:hunter2@mongo-0/?replicaSet=rs0 '],
    ['AMQP_URL', amqpKeys, 'amqp://user:hunter2@rabbit:5672 '],
  ] as const)('when %s is refused (a secret file’s trailing space), then the error does not print its password', (name, keys, value) => {
    expect(() => loadConfig(keys, { [name]: value })).toThrow(new RegExp(`${name} .*\\(hidden\\)`));
    expect(() => loadConfig(keys, { [name]: value })).not.toThrow(/hunter2/);
  });

  describe('an int key with a smallest and a largest value', () => {
    const windowed = { WINDOW_S: { doc: 'the window', format: 'int', default: 60, atLeast: 1, atMost: 86_400 } } as const;

    it.each([
      ['1', 1],
      ['86400', 86_400],
      [undefined, 60],
    ])('when it is %p, then it is taken as %p', (value, expected) => {
      expect(loadConfig(windowed, { WINDOW_S: value }).WINDOW_S).toBe(expected);
    });

    it('when it is below the smallest value, then the service does not start and the message says what is allowed', () => {
      expect(() => loadConfig(windowed, { WINDOW_S: '0' })).toThrow('WINDOW_S must be >= 1, got "0" (the window)');
    });

    it('when it is above the largest value, then the service does not start and the message says what is allowed', () => {
      expect(() => loadConfig(windowed, { WINDOW_S: '86401' })).toThrow('WINDOW_S must be <= 86400, got "86401" (the window)');
    });
  });

  describe('an int key that 0 turns off, with a floor', () => {
    const floored = { KEEP: { doc: 'tokens kept', format: 'int', default: 100, offOrAtLeast: 2 } } as const;

    it.each([
      ['0', 0],
      ['2', 2],
      ['100', 100],
      [undefined, 100],
    ])('when it is %p, then it is taken as %p', (value, expected) => {
      expect(loadConfig(floored, { KEEP: value }).KEEP).toBe(expected);
    });

    it('when it is above 0 and below the floor, then the service does not start and the message says what is allowed', () => {
      expect(() => loadConfig(floored, { KEEP: '1' })).toThrow(ConfigError);
      expect(() => loadConfig(floored, { KEEP: '1' })).toThrow('KEEP must be 0 (off) or at least 2, got "1" (tokens kept)');
    });

    it('when it is not an integer, then the type is what the message names', () => {
      expect(() => loadConfig(floored, { KEEP: 'x' })).toThrow(/KEEP must be integer, got "x"/);
    });

    it('when another variable is wrong too, then the message names both', () => {
      const both = { ...floored, PORT: { doc: 'port to listen on', format: 'port', default: 3000 } } as const;
      expect(() => loadConfig(both, { KEEP: '1', PORT: '70000' })).toThrow(/PORT must be <= 65535.*; KEEP must be 0 \(off\) or at least 2/);
    });
  });

  it('when an optional key is not set, then its value is undefined, and when it is set, then it is validated', () => {
    const schema = { PUBLIC_URL: { doc: 'where clients reach us', format: 'url', optional: true } } as const;
    expect(loadConfig(schema, {}).PUBLIC_URL).toBeUndefined();
    expect(loadConfig(schema, { PUBLIC_URL: 'https://sync.example.com' }).PUBLIC_URL).toBe('https://sync.example.com');
    expect(() => loadConfig(schema, { PUBLIC_URL: 'not a url' })).toThrow(/PUBLIC_URL .*where clients reach us/);
  });

  describe('secrets in production', () => {
    const secrets = {
      ADMIN_TOKEN: { doc: 'bearer token of the admin API', format: 'string', sensitive: true, productionSecret: true },
      SECRETS_KEY: { doc: 'seals secrets', format: 'string', sensitive: true, productionSecret: true, default: 'dev-secrets-key-not-for-production' },
    } as const;
    const strong = 'q9Vf3kLx0R2mT8wZ1yB6nC4hJ7pD5sGe';

    it.each([
      [
        { NODE_ENV: 'production', ADMIN_TOKEN: 'change-me', SECRETS_KEY: strong },
        /^Invalid configuration: ADMIN_TOKEN is a placeholder or development value; with NODE_ENV=production set it to a random value of at least 32 characters \(bearer token of the admin API\)$/,
      ],
      [{ NODE_ENV: 'production', ADMIN_TOKEN: 'short-but-random-9f3k', SECRETS_KEY: strong }, /ADMIN_TOKEN is shorter than 32 characters/],
      [{ NODE_ENV: 'production', ADMIN_TOKEN: strong }, /SECRETS_KEY is a placeholder or development value/],
      [{ NODE_ENV: 'production', ADMIN_TOKEN: strong, SECRETS_KEY: strong }, null],
      [{ ADMIN_TOKEN: 'change-me' }, null],
      [{ NODE_ENV: 'development', ADMIN_TOKEN: 'dev-admin-token' }, null],
    ])('when the environment is %p, then the service %p', (env, message) => {
      if (message === null) return expect(() => loadConfig(secrets, env)).not.toThrow();
      expect(() => loadConfig(secrets, env)).toThrow(ConfigError);
      expect(() => loadConfig(secrets, env)).toThrow(message);
    });

    it('when a weak secret is refused, then its value is not printed', () => {
      expect(() => loadConfig(secrets, { NODE_ENV: 'production', ADMIN_TOKEN: 'change-me-hunter2' })).toThrow(
        expect.objectContaining({ message: expect.not.stringContaining('hunter2') }),
      );
    });
  });
});
