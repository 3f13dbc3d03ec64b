// Summarises what `npm run bench -- --profile` recorded in tmp/bench-profile: where the database
// server spent its CPU (flight recording, read with the JDK's `jfr` tool) and where each app spent
// its own (V8 CPU profiles). Usage: node tools/scripts/profile-report.mjs [dir]
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const dir = process.argv[2] ?? path.join(root, 'tmp', 'bench-profile');
const percent = (part, whole) => `${((100 * part) / whole).toFixed(1).padStart(5)}%`;
const top = (counts, n) => [...counts].sort((a, b) => b[1] - a[1]).slice(0, n);
const add = (counts, key, value = 1) => counts.set(key, (counts.get(key) ?? 0) + value);

function databaseServer(file) {
  const printed = spawnSync('jfr', ['print', '--stack-depth', '96', '--events', 'jdk.ExecutionSample', file], { encoding: 'utf8', maxBuffer: 1 << 30 });
  if (printed.status !== 0) return console.log(`(could not read ${file} with jfr: ${printed.stderr || printed.error})`);
  const samples = printed.stdout
    .split('jdk.ExecutionSample {')
    .slice(1)
    .map((sample) => (/stackTrace = \[([\s\S]*?)\n\s*\]/.exec(sample)?.[1] ?? '').split('\n').map((line) => line.trim().replace(/\(.*$/, '')).filter((line) => line && line !== '...'));
  const byCommand = new Map();
  const inclusive = new Map();
  for (const frames of samples) {
    add(byCommand, frames.find((frame) => /AbstractMongoDatabase\.command/.test(frame))?.replace(/.*\.command/, '') ?? '(wire protocol, encoding, other)');
    for (const frame of new Set(frames.filter((f) => f.includes('bwaldvogel')).map((f) => f.split('.').slice(-2).join('.')))) add(inclusive, frame);
  }
  console.log(`\nMongoDB-wire server: ${samples.length} CPU samples, by command`);
  for (const [command, count] of top(byCommand, 8)) console.log(`  ${percent(count, samples.length)}  ${command}`);
  console.log('  inclusive, the server\'s own methods:');
  for (const [frame, count] of top(inclusive, 16)) console.log(`  ${percent(count, samples.length)}  ${frame}`);
}

function app(file) {
  const profile = JSON.parse(fs.readFileSync(file, 'utf8'));
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  const time = new Map();
  profile.samples.forEach((id, i) => add(time, id, profile.timeDeltas[i] ?? 0));
  const total = [...time.values()].reduce((a, b) => a + b, 0);
  const busy = total - [...time].filter(([id]) => nodes.get(id).callFrame.functionName === '(idle)').reduce((a, [, t]) => a + t, 0);
  const byPackage = new Map();
  const byFunction = new Map();
  for (const [id, t] of time) {
    const { functionName, url, lineNumber } = nodes.get(id).callFrame;
    if (functionName === '(idle)') continue;
    add(byPackage, url.includes('node_modules/') ? url.split('node_modules/').pop().split('/')[0] : url.includes('/dist/apps/') ? 'the app itself' : functionName || '(native)', t);
    add(byFunction, `${functionName || '(anonymous)'} ${path.basename(url)}:${lineNumber + 1}`, t);
  }
  const name = /dist\/apps\/([^/]+)\//.exec(profile.nodes.find((node) => node.callFrame.url.includes('/dist/apps/'))?.callFrame.url ?? '')?.[1] ?? path.basename(file);
  console.log(`\n${name}: ${(busy / 1e6).toFixed(1)} s busy of ${(total / 1e6).toFixed(1)} s`);
  for (const [pkg, t] of top(byPackage, 6)) console.log(`  ${percent(t, busy)}  ${pkg}`);
  for (const [fn, t] of top(byFunction, 6)) console.log(`  ${percent(t, busy)}    ${fn}`);
}

if (!fs.existsSync(dir)) {
  console.error(`no profile in ${dir}; run npm run bench -- --quick --only e2e --profile first`);
  process.exit(1);
}
for (const file of fs.readdirSync(dir).sort()) {
  if (file.endsWith('.jfr')) databaseServer(path.join(dir, file));
  else if (file.endsWith('.cpuprofile')) app(path.join(dir, file));
}
