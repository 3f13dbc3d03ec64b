import { readFileSync } from 'node:fs';
import path from 'node:path';
// eslint-disable-next-line @nx/enforce-module-boundaries -- the generator of docs/configuration.md is a script, not a project
import { CONFIGURATION_DOC, configurationDoc } from '../../tools/config-reference/configuration-doc';

describe('docs/configuration.md', () => {
  it('when it is compared with what the config schemas generate, then it is current (else: node tools/scripts/config-reference.mjs)', () => {
    expect(readFileSync(path.join(__dirname, '..', '..', CONFIGURATION_DOC), 'utf8')).toBe(configurationDoc());
  });

  it('when the reference is generated, then it names every service variable, including the health ports and the throttles', () => {
    const doc = configurationDoc();
    for (const name of [
      'MAPPER_HEALTH_PORT',
      'APPLIER_HEALTH_PORT',
      'IMPORT_COORDINATOR_HEALTH_PORT',
      'WEBHOOK_DISPATCHER_HEALTH_PORT',
      'ALERT_EVALUATOR_HEALTH_PORT',
      'GATEWAY_PORT',
      'CRM_PORT',
      'AMQP_PREFIX',
      'AUTH_FAILURE_LIMIT',
      'NODE_ENV',
    ]) {
      expect(doc).toContain(`| \`${name}\` |`);
    }
  });
});
