import { readFileSync, writeFileSync } from 'node:fs';
import { CONFIGURATION_DOC, configurationDoc } from './configuration-doc';

const expected = configurationDoc();
if (process.argv.includes('--check')) {
  const current = readFileSync(CONFIGURATION_DOC, 'utf8');
  if (current !== expected) {
    console.error(`${CONFIGURATION_DOC} is stale: run node tools/scripts/config-reference.mjs`);
    process.exit(1);
  }
} else {
  writeFileSync(CONFIGURATION_DOC, expected);
  console.log(`wrote ${CONFIGURATION_DOC}`);
}
