// npm run cli / redrive / reseal: the CLI bundle (built first when missing or older than what it is
// built from: the CLI's and the libraries' sources and the build settings), with the settings of
// the stack `npm start` runs from this checkout (tmp/dev-data/cli.json, written while it runs), so
// that its commands reach that stack's database, broker, gateway and CRM. The file is used only
// while the stack that wrote it runs, and only when none of the connection variables is set in the
// environment (a command aimed elsewhere takes nothing from the stack); otherwise the CLI's own
// configuration applies.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const bundle = path.join(root, 'dist', 'apps', 'cli', 'main.js');
const stackFile = path.join(root, 'tmp', 'dev-data', 'cli.json');
const CONNECTION_VARIABLES = ['MONGO_URL', 'AMQP_URL', 'AMQP_PREFIX', 'GATEWAY_URL', 'CRM_BASE_URL'];

/** The newest modification time of the files under `dir` (0 when there is none; what cannot be read is passed over). */
function newestUnder(dir) {
  let newest = 0;
  let entries = [];
  try {
    entries = fs.readdirSync(dir, { withFileTypes: true });
  } catch {
    return 0;
  }
  for (const entry of entries) {
    const at = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestUnder(at) : modifiedAt(at));
  }
  return newest;
}

/** A file's modification time (a link's target's), or 0 when it is gone or cannot be read (a dangling link, a file deleted meanwhile). */
function modifiedAt(file) {
  try {
    return fs.statSync(file).mtimeMs;
  } catch {
    return 0;
  }
}

/** What the bundle is built from: the CLI's and the libraries' sources, and the build's own settings. */
function newestInput() {
  const libraries = fs.readdirSync(path.join(root, 'libs')).map((name) => path.join(root, 'libs', name, 'src'));
  const sources = [path.join(root, 'apps', 'cli', 'src'), ...libraries].map(newestUnder);
  const settings = [
    'nx.json',
    'tsconfig.base.json',
    'package-lock.json',
    'apps/cli/tsconfig.json',
    'apps/cli/tsconfig.app.json',
    'apps/cli/project.json',
    'tools/scripts/build-app.mjs',
  ];
  return Math.max(...sources, ...settings.map((file) => modifiedAt(path.join(root, file))));
}

if (!fs.existsSync(bundle) || newestInput() > fs.statSync(bundle).mtimeMs) {
  const startedAt = new Date();
  // Build output goes to stderr: what the CLI prints on stdout stays its own (JSON for scripts).
  const built = spawnSync('npx', ['nx', 'run', 'cli:build', '--outputStyle=static'], {
    cwd: root,
    stdio: ['ignore', process.stderr, process.stderr],
    env: { ...process.env, NX_DAEMON: 'false' },
  });
  if (built.error) console.error(`building the CLI failed: ${built.error.message}`);
  if (built.status !== 0) process.exit(built.status ?? 1);
  // A build served from Nx's cache may leave the bundle as it was (a source touched, not changed): mark it
  // built as of the build's start, so that a source saved while it ran is newer.
  fs.utimesSync(bundle, startedAt, startedAt);
}

/** Whether the stack that wrote the file runs: a process of this user with its pid (EPERM: another user's, a reused pid). */
function running(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

function stackSettings() {
  if (CONNECTION_VARIABLES.some((name) => process.env[name] !== undefined) || !fs.existsSync(stackFile)) return {};
  try {
    const { pid, env } = JSON.parse(fs.readFileSync(stackFile, 'utf8'));
    return Number.isInteger(pid) && running(pid) ? env : {};
  } catch {
    return {};
  }
}

const run = spawnSync(process.execPath, [bundle, ...process.argv.slice(2)], { stdio: 'inherit', env: { ...stackSettings(), ...process.env } });
if (run.error) console.error(`running the CLI failed: ${run.error.message}`);
process.exit(run.status ?? 1);
