import { renderConfigReference } from '@ecomm-sync/runtime';
import { applierConfigSchema } from '../../apps/applier/src/config';
import { cliConfig } from '../../apps/cli/src/config';
import { crmConfigSchema } from '../../apps/crm/src/config';
import { gatewayConfigSchema } from '../../apps/gateway/src/config';
import { importCoordinatorConfigSchema } from '../../apps/import-coordinator/src/config';
import { mapperConfigSchema } from '../../apps/mapper/src/config';
import { webhookDispatcherConfigSchema } from '../../apps/webhook-dispatcher/src/config';
import { alertEvaluatorConfigSchema } from '../../apps/alert-evaluator/src/config';

export const CONFIGURATION_DOC = 'docs/configuration.md';

/** docs/configuration.md as generated from the config schemas (`node tools/scripts/config-reference.mjs` writes it). */
export function configurationDoc(): string {
  const table = renderConfigReference([
    { service: 'gateway', schema: gatewayConfigSchema },
    { service: 'mapper', schema: mapperConfigSchema },
    { service: 'applier', schema: applierConfigSchema },
    { service: 'import-coordinator', schema: importCoordinatorConfigSchema },
    { service: 'webhook-dispatcher', schema: webhookDispatcherConfigSchema },
    { service: 'alert-evaluator', schema: alertEvaluatorConfigSchema },
    { service: 'crm', schema: crmConfigSchema },
    { service: 'cli', schema: cliConfig },
  ]);
  return `# Configuration reference

Generated from the config schemas of the apps by \`node tools/scripts/config-reference.mjs\`; do not
edit by hand (a test fails when this file is stale). Every variable is validated at boot: a wrong
value stops the service with a message naming it. **required**: the service does not start without
it. With \`NODE_ENV=production\`, \`ADMIN_TOKEN\` and \`SECRETS_KEY\` must be random values of at least
32 characters.

${table}
`;
}
