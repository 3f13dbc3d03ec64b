// Bundles one app into dist/apps/<app>/main.js: our libs inlined (tsconfig paths), npm packages external.
import { build } from 'esbuild';
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
console.log(`built dist/apps/${app}/main.js`);
