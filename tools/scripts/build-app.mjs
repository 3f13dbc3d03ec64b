// Bundles one app into dist/apps/<app>/main.js: our libs inlined (tsconfig paths), npm packages external.
// A worker thread's file (`*.worker.cjs`, plain JavaScript on Node's own modules) is copied next to it,
// where the code that starts the worker finds it (`path.join(__dirname, …)`).
import { build } from 'esbuild';
import { copyFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const app = process.argv[2];
if (!app) {
  console.error('usage: node tools/scripts/build-app.mjs <app>');
  process.exit(2);
}

await build({
  entryPoints: [path.join(root, 'apps', app, 'src', 'main.ts')],
  outfile: path.join(root, 'dist', 'apps', app, 'main.js'),
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  packages: 'external',
  sourcemap: true,
  tsconfig: path.join(root, 'tsconfig.base.json'),
  logLevel: 'warning',
});
const sources = path.join(root, 'apps', app, 'src');
const workers = readdirSync(sources, { recursive: true, encoding: 'utf8' }).filter((name) => name.endsWith('.worker.cjs'));
const names = workers.map((file) => path.basename(file));
const twice = names.find((name, i) => names.indexOf(name) !== i);
if (twice) {
  console.error(`apps/${app}/src has two worker files named ${twice}: they would land on one file next to the bundle; rename one`);
  process.exit(1);
}
for (const file of workers) copyFileSync(path.join(sources, file), path.join(root, 'dist', 'apps', app, path.basename(file)));
console.log(`built dist/apps/${app}/main.js`);
