import { existsSync } from 'node:fs';
import path from 'node:path';

/**
 * The workspace root: the nearest folder up from here that holds nx.json. Works from source and
 * from a bundle; the one place tests, the stack harness, the chaos suite and the launcher find it.
 */
export const workspaceRoot = (() => {
  for (let dir = __dirname; dir !== path.dirname(dir); dir = path.dirname(dir)) if (existsSync(path.join(dir, 'nx.json'))) return dir;
  throw new Error(`no nx.json above ${__dirname}`);
})();
