// Writes docs/configuration.md from the apps' config schemas (--check: fails when it is stale).
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleScript } from './bundle-script.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const out = 'tmp/config-reference/main.js';
await bundleScript('tools/config-reference/main.ts', out);
const { status } = spawnSync(process.execPath, [path.join(root, out), ...process.argv.slice(2)], { cwd: root, stdio: 'inherit' });
process.exit(status ?? 1);
