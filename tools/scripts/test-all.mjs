// npm test: installs what is missing, starts the infrastructure once, lints the tree, runs every
// tier through Nx (unit, integration, end-to-end), and ends with one line "N passed, N failed" from jest's
// own result files (tools/jest/result-file-reporter.cjs).
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const require = createRequire(import.meta.url);
const reportDir = path.join(root, 'reports', 'jest');

/** A command as a shell would take it: an argument with spaces or quotes in single quotes. */
const shown = (command, args) => [command, ...args.map((arg) => (/[\s'"$]/.test(arg) ? `'${arg.replaceAll("'", "'\\''")}'` : arg))].join(' ');

function run(command, args, env = process.env) {
  console.log(`\n$ ${shown(command, args)}`);
  return spawnSync(command, args, { cwd: root, stdio: 'inherit', env }).status ?? 1;
}

/** Like run, but keeps this process's event loop free while the command runs. */
function runAsync(command, args, env) {
  console.log(`\n$ ${shown(command, args)}`);
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: root, stdio: 'inherit', env });
    child.once('exit', (code) => resolve(code ?? 1));
  });
}

if (!fs.existsSync(path.join(root, 'node_modules', '.package-lock.json'))) {
  if (run('npm', ['ci', '--no-audit', '--no-fund']) !== 0) process.exit(1);
}

// The console's browser tests drive Debian's chromium through playwright-core (decision 0033).
if (!fs.existsSync('/usr/bin/chromium')) {
  const asRoot = process.getuid?.() === 0 ? [] : ['sudo'];
  const apt = (...args) => run(asRoot[0] ?? 'apt-get', asRoot.length ? ['apt-get', ...args] : args, { ...process.env, DEBIAN_FRONTEND: 'noninteractive' });
  if (apt('update', '-q') !== 0 || apt('install', '-y', 'chromium') !== 0) {
    console.error('could not install chromium (apt-get install -y chromium); the console browser tests need /usr/bin/chromium');
    process.exit(1);
  }
}

const { ensureJar, startMongoServer } = require('../infra/mongo-server.cjs');
const { ensureRabbitMq } = require('../infra/rabbitmq.cjs');

ensureJar();
const amqpUrl = await ensureRabbitMq();
const mongo = await startMongoServer({ logFile: path.join(root, 'tmp', 'mongo-server-test.log') });
console.log(`MongoDB-wire server at ${mongo.url}; RabbitMQ at ${amqpUrl.replace(/\/\/[^@]*@/, '//')}`);

fs.rmSync(reportDir, { recursive: true, force: true });
const env = { ...process.env, MONGO_URL: mongo.url, AMQP_URL: amqpUrl, NX_DAEMON: 'false', NX_NO_CLOUD: 'true' };
let status = 0;
try {
  // Lint in one eslint process beside the other tiers: typed lint builds a TypeScript program per
  // process, so the projects' lint targets together cost about twice the CPU of one run over the
  // tree (decision 41). The same roots as the projects' (every project lives under one of them).
  const format = run('npm', ['run', '--silent', 'format:check']); // Prettier (.prettierrc.json): seconds
  // The whole tree's types (tsconfig.json: apps, libs, bench, deploy, specs included; the console has its
  // own in its build): nx builds only the apps, so a spec's type error would otherwise pass. ~15 s.
  const typecheck = run('npx', ['tsc', '-p', 'tsconfig.json', '--noEmit']);
  if (typecheck !== 0) console.error('typecheck failed (npx tsc -p tsconfig.json --noEmit)');
  // Its TypeScript program holds every file and the types they import (the CRM vendor's SDK among
  // them): past node's default heap of about 4 GB on this machine, so it gets 8 GB of its own.
  const lintEnv = { ...env, NODE_OPTIONS: `${env.NODE_OPTIONS ?? ''} --max-old-space-size=8192`.trim() };
  const lint = runAsync('npx', ['eslint', 'apps', 'libs', 'bench', 'deploy', '--max-warnings=0'], lintEnv);
  // Every build first, then the end-to-end tier beside the unit and integration tiers. The end-to-end
  // tier runs in band for about 11 minutes; in one `run-many` of every target, nx started it only
  // after all the other tasks, so one of the two slots sat idle for those minutes. Its command is the
  // project's own (apps/e2e/project.json), run directly: two nx processes at once would share one
  // workspace database. The other tiers skip their task dependencies: a build nx replayed from its
  // cache would delete and copy again the dist folders the end-to-end stacks start apps from.
  // Through a shell with the project's binaries first on the path, as nx's run-commands runs it (quotes and all).
  const e2eCommand = JSON.parse(fs.readFileSync(path.join(root, 'apps', 'e2e', 'project.json'), 'utf8')).targets.e2e.options.command;
  const e2eEnv = { ...env, PATH: `${path.join(root, 'node_modules', '.bin')}${path.delimiter}${env.PATH ?? ''}` };
  status = await runAsync('npx', ['nx', 'run-many', '-t', 'build', '--parallel=2', '--outputStyle=stream'], env);
  if (status !== 0) console.error('build failed (npx nx run-many -t build): no test tier ran');
  else {
    const tiers = await Promise.all([
      runAsync('sh', ['-c', e2eCommand], e2eEnv),
      runAsync('npx', ['nx', 'run-many', '-t', 'test', 'integration', '--parallel=1', '--excludeTaskDependencies', '--outputStyle=stream'], env),
    ]);
    status = tiers.find((code) => code !== 0) ?? 0;
  }
  const lintStatus = await lint;
  if (lintStatus !== 0) console.error('lint failed (npx eslint apps libs bench deploy --max-warnings=0)');
  status ||= lintStatus || format || typecheck;
} finally {
  await mongo.stop();
}

const files = fs.existsSync(reportDir) ? fs.readdirSync(reportDir).filter((file) => file.endsWith('.json')) : [];
let passed = 0;
let failed = 0;
const failures = [];
for (const file of files) {
  const result = JSON.parse(fs.readFileSync(path.join(reportDir, file), 'utf8'));
  passed += result.passed;
  failed += result.failed + result.suitesFailedToRun;
  failures.push(...(result.failures ?? []));
}
// Repeated at the end, where a CI log that keeps only its tail still shows them.
for (const { test, why } of failures) console.log(`\nFAILED ${test}\n${why.map((line) => `  ${line}`).join('\n')}`);
if (status !== 0 && failed === 0) failed = 1; // a tier that failed outside jest (lint, build) still fails the run
console.log(`\n${passed} passed, ${failed} failed`);
process.exit(status === 0 && failed === 0 ? 0 : 1);
