// npm run cli / redrive / reseal: the CLI bundle (built first when missing), with the settings of
// the stack `npm start` runs from this checkout (tmp/dev-data/cli.env, written while it runs), so
// that its commands reach that stack's database, broker, gateway and CRM. Variables set in the
// environment win over the file; without a running stack the CLI's own defaults apply.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const bundle = path.join(root, 'dist', 'apps', 'cli', 'main.js');
const stackFile = path.join(root, 'tmp', 'dev-data', 'cli.env');

if (!fs.existsSync(bundle)) {
  // Build output goes to stderr: what the CLI prints on stdout stays its own (JSON for scripts).
  const built = spawnSync('npx', ['nx', 'run', 'cli:build', '--outputStyle=static'], {
    cwd: root,
    stdio: ['ignore', process.stderr, process.stderr],
    env: { ...process.env, NX_DAEMON: 'false' },
  });
  if (built.status !== 0) process.exit(built.status ?? 1);
}

const fromStack = fs.existsSync(stackFile)
  ? Object.fromEntries(
      fs
        .readFileSync(stackFile, 'utf8')
        .split('\n')
        .filter((line) => line.includes('='))
        .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
    )
  : {};
const run = spawnSync(process.execPath, [bundle, ...process.argv.slice(2)], { stdio: 'inherit', env: { ...fromStack, ...process.env } });
process.exit(run.status ?? 1);
