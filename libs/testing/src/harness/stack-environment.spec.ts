import { ALL_APPS, ISOLATING_VARIABLES, METRICS_PORT_VARIABLES, stackEnvironment, type AppName } from './stack-environment';

describe('stackEnvironment', () => {
  it('when a stack environment is built, then every variable it sets either keeps stacks apart or is a tunable named here', () => {
    const ports = Object.fromEntries(ALL_APPS.map((app, n) => [app, 4000 + n])) as Record<AppName, number>;
    const metricsPorts = Object.fromEntries(Object.keys(METRICS_PORT_VARIABLES).map((app, n) => [app, 5000 + n]));
    const env = stackEnvironment('stack', { mongoUrl: 'mongodb://db', amqpUrl: 'amqp://broker' }, { ports, metricsPorts });

    const tunables = Object.keys(env).filter((key) => !ISOLATING_VARIABLES.includes(key));

    // A variable added to stackEnvironment fails this until it is put on one side: an isolating one
    // is refused by the bench's --stack-env (bench/src/stack-env.ts).
    expect(tunables.sort()).toEqual(['AMQP_RETRY_DELAY_MS', 'CRM_ALLOW_HTTP', 'LOG_LEVEL', 'PATH', 'RATE_LIMIT_REQUESTS', 'WEBHOOK_ALLOW_PRIVATE_TARGETS']);
    expect(ISOLATING_VARIABLES.filter((key) => !(key in env))).toEqual([]);
  });
});
