import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { stackEnvArguments, stackEnvOf } from './stack-env';

const root = path.join(__dirname, '..', '..');
const parse = (...argv: string[]) => stackEnvOf(['node', 'run.js', '--quick', ...argv], root);

describe('stackEnvOf', () => {
  it.each([
    ['no --stack-env', [], {}],
    ['one setting', ['--stack-env', 'AMQP_BULK_HOLD_MS=0'], { AMQP_BULK_HOLD_MS: '0' }],
    [
      'two settings beside other flags',
      ['--only', 'ingest', '--stack-env', 'AMQP_BULK_HOLD_MS=100', '--stack-env', 'INTAKE_SHARED_OBJECTS_PER_SECOND=2000'],
      { AMQP_BULK_HOLD_MS: '100', INTAKE_SHARED_OBJECTS_PER_SECOND: '2000' },
    ],
    ['an empty value', ['--stack-env', 'LOG_LEVEL='], { LOG_LEVEL: '' }],
    ['a value holding "="', ['--stack-env', 'LOG_LEVEL=a=b'], { LOG_LEVEL: 'a=b' }],
  ])('when the arguments hold %s, then the settings are read from them', (_what, argv, expected) => {
    expect(parse(...argv)).toEqual(expected);
  });

  it.each([
    ['the setting is missing', ['--stack-env'], '--stack-env needs KEY=VALUE'],
    ['the setting has no "="', ['--stack-env', 'AMQP_BULK_HOLD_MS'], '--stack-env needs KEY=VALUE'],
    ['the key is lower case', ['--stack-env', 'amqp_bulk_hold_ms=0'], '--stack-env needs KEY=VALUE'],
    ['the setting is joined with "="', ['--stack-env=AMQP_BULK_HOLD_MS=0'], 'takes its setting as the next argument'],
    ['the key is no app’s setting', ['--stack-env', 'AMQP_BULK_HOLD=0'], 'AMQP_BULK_HOLD is not a setting of any app'],
    ['the key keeps stacks apart', ['--stack-env', 'AMQP_PREFIX=x'], 'AMQP_PREFIX is set by the test stack to keep stacks apart'],
    ['a figure compares the key', ['--stack-env', 'METRICS_ENABLED=false'], 'the observability figure compares it off and on'],
    ['a flag sets the key', ['--stack-env', 'CRM_MAX_WAIT_MS=1000'], 'use --crm-max-wait-ms'],
    ['the key is given twice', ['--stack-env', 'LOG_LEVEL=warn', '--stack-env', 'LOG_LEVEL=info'], 'LOG_LEVEL is given twice (warn and info)'],
  ])('when %s, then the bench stops saying so', (_what, argv, message) => {
    expect(() => parse(...argv)).toThrow(message);
  });
});

describe('stackEnvArguments', () => {
  it.each([
    ['no settings', {}, ''],
    ['two plain settings', { AMQP_BULK_HOLD_MS: '0', LOG_LEVEL: 'warn' }, '--stack-env AMQP_BULK_HOLD_MS=0 --stack-env LOG_LEVEL=warn'],
    ['a value with ":", "/" and ","', { GATEWAY_PUBLIC_URL: 'http://127.0.0.1:8080/a,b' }, '--stack-env GATEWAY_PUBLIC_URL=http://127.0.0.1:8080/a,b'],
    ['a value with a space', { LOG_LEVEL: 'two words' }, "--stack-env 'LOG_LEVEL=two words'"],
    ['a value with a single quote', { LOG_LEVEL: "it's" }, "--stack-env 'LOG_LEVEL=it'\\''s'"],
    ['an empty value', { LOG_LEVEL: '' }, '--stack-env LOG_LEVEL='],
    ['a value with a line break', { LOG_LEVEL: 'a\nb' }, "--stack-env 'LOG_LEVEL=a\nb'"],
  ])('when the settings hold %s, then the recorded command line is one a shell reads back', (_what, env, expected) => {
    const line = stackEnvArguments(env);
    expect(line).toBe(expected);
    // sh splits the line into words as a pasted command would; each is printed ending in NUL, so a value may hold anything.
    const words = execFileSync('sh', ['-c', `set -- ${line}; for word; do printf '%s\\0' "$word"; done`], { encoding: 'utf8' })
      .split('\0')
      .slice(0, -1);
    expect(words).toEqual(Object.entries(env).flatMap(([key, value]) => ['--stack-env', `${key}=${value}`]));
  });
});
