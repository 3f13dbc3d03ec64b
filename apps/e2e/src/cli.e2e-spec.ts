import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { testInfrastructure, uniqueName } from '@ecomm-sync/testing';

/** The operator's CLI as built (dist/apps/cli/main.js), run as an operator runs it; `input` is piped to its standard input. */
const run = async (args: string[], env: Record<string, string> = {}, input = '') => {
  const running = promisify(execFile)(process.execPath, [path.join(__dirname, '../../../dist/apps/cli/main.js'), ...args], {
    env: { PATH: process.env.PATH ?? '', ...env },
  });
  running.child.stdin?.end(input);
  return running.then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (error: { code: number; stdout: string; stderr: string }) => ({ code: error.code, stdout: error.stdout, stderr: error.stderr }),
  );
};

describe('the ecomm-sync CLI', () => {
  it.each([
    [['reseal', '--help'], 'Usage: ecomm-sync <command>'],
    [['seed-demo', '-h'], 'Usage: ecomm-sync <command>'],
    [['create-portal', '--help'], 'Usage: ecomm-sync <command>'],
    [['redrive', '--all', '--help'], 'usage: ecomm-sync redrive'],
    [['admin', 'portals', 'rotate-key', '42', '--help'], 'Usage: ecomm-sync admin'],
  ])('when %j asks for help, then it prints the usage and does nothing', async (args, usage) => {
    // Nothing answers at these addresses: a command that ran would fail.
    const { code, stdout } = await run(args, { MONGO_URL: 'mongodb://127.0.0.1:9/', AMQP_URL: 'amqp://127.0.0.1:9', GATEWAY_URL: 'http://127.0.0.1:9' });
    expect({ code, usage: stdout.startsWith(usage) }).toEqual({ code: 0, usage: true });
  });

  it('when CRM secrets are given as -, then they are read from standard input, one line each, and a missing line is a usage error', async () => {
    const args = ['admin', 'portals', 'crm-connection', '7', '--kind', 'hosted', '--client-id', 'c', '--client-secret', '-', '--refresh-token', '-'];
    const env = { GATEWAY_URL: 'http://127.0.0.1:9', ADMIN_TOKEN: 'admin-token' };

    const short = await run(args, env, 's3cret\n');
    // Both lines read: the request goes out (nothing answers at this address).
    const whole = await run(args, env, 's3cret\nrefresh-1\n');

    expect({ code: short.code, stderr: short.stderr }).toEqual({
      code: 2,
      stderr: expect.stringMatching(/--refresh-token - reads its value from standard input.*line 2 is missing/),
    });
    expect(whole.code).toBe(1);
    expect(whole.stderr).not.toMatch(/usage|standard input/);
    expect(whole.stderr).toMatch(/ECONNREFUSED|connect/);
  });

  it('when reseal is given an argument it does not take, then it refuses with the usage', async () => {
    const { code, stderr } = await run(['reseal', '--all']);
    expect(code).toBe(2);
    expect(stderr).toMatch(/^reseal takes no argument "--all"/);
  });

  it('when reseal finds no sealed value in the database it was pointed at, then it fails and says to check the database, unless told it may be empty', async () => {
    const env = { MONGO_URL: testInfrastructure().mongoUrl, MONGO_DB: uniqueName('cli_reseal_empty').replace(/-/g, '_') };

    const empty = await run(['reseal'], env);
    const allowed = await run(['reseal', '--allow-empty'], env);

    expect(empty.code).toBe(1);
    expect(empty.stdout).toMatch(new RegExp(`no sealed value found in database ${env.MONGO_DB}: is it the services' database`));
    expect(allowed.code).toBe(0);
    expect(allowed.stdout).toMatch(/sealed again under key \S+: 0; already current: 0; failed: 0/);
  });
});
