// Bundles a TypeScript entry of the workspace into one node script (packages stay external), with
// the workspace's path aliases: how the benchmark and the chaos runner are built.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

export function bundleScript(entry, outfile) {
  return build({
    entryPoints: [path.join(root, entry)],
    outfile: path.join(root, outfile),
    bundle: true,
    platform: 'node',
    target: 'node20',
    packages: 'external',
    tsconfig: path.join(root, 'tsconfig.base.json'),
    logLevel: 'warning',
  });
}
