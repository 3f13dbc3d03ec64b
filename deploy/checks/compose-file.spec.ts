import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseServiceAddresses } from '@ecomm-sync/domain';
import { SHUTDOWN_TIMEOUT_MS } from '@ecomm-sync/runtime';
import { composePortProblems, composeSchemaProblems, composeStopGraceProblems } from './compose-file';
import { readYamlDocuments } from './yaml-documents';

const COMPOSE = path.join(__dirname, '..', '..', 'docker', 'compose.yaml');
const compose = () => readYamlDocuments(COMPOSE)[0] as { services: Record<string, Record<string, unknown>> };

describe('docker/compose.yaml', () => {
  it('when it is checked against the compose specification schema, then it is valid', () => {
    expect(composeSchemaProblems(compose())).toEqual([]);
  });

  it('when its published ports are read, then each listens on 127.0.0.1 unless BIND_ADDRESS says otherwise', () => {
    expect(composePortProblems(compose())).toEqual([]);
  });

  it('when the services are stopped, then each of ours is given longer than its drain before it is killed', () => {
    expect(composeStopGraceProblems(compose(), SHUTDOWN_TIMEOUT_MS)).toEqual([]);
  });

  it("when the gateway's SERVICE_READINESS_URLS is read, then it names every other app service at its own host name", () => {
    const { services } = compose();
    const list = (services.gateway.environment as Record<string, string>).SERVICE_READINESS_URLS;
    const named = parseServiceAddresses(list).map(({ service, url }) => [service, new URL(url).hostname]);
    const apps = Object.keys(services).filter((name) => name !== 'gateway' && name !== 'mongo' && name !== 'rabbitmq');
    expect(named.sort()).toEqual(apps.map((name) => [name, name]).sort());
    expect((services.gateway.environment as Record<string, string>).MONGO_URL).toBe('mongodb://mongo:27017'); // the merge kept the shared settings
  });

  it('when the images are read, then each runtime is a supported line: Node 22 or later, MongoDB 8, RabbitMQ 4', () => {
    const { services } = compose();
    expect(String(services.mongo.image)).toMatch(/^mongo:8(\.|$)/);
    expect(String(services.rabbitmq.image)).toMatch(/^rabbitmq:4(\.|-|$)/);
    const dockerfile = readFileSync(path.join(__dirname, '..', '..', 'docker', 'Dockerfile'), 'utf8');
    const node = /^ARG NODE_IMAGE=node:(\d+)/m.exec(dockerfile);
    expect(Number(node?.[1])).toBeGreaterThanOrEqual(22);
  });

  it('when the gateway image is built, then the console is built into it where the gateway looks for it (../console from its bundle)', () => {
    const dockerfile = readFileSync(path.join(__dirname, '..', '..', 'docker', 'Dockerfile'), 'utf8');
    const viteConfig = readFileSync(path.join(__dirname, '..', '..', 'apps', 'console', 'vite.config.mts'), 'utf8');
    expect(dockerfile).toMatch(/if \[ "\$APP" = gateway \]; then npx vite build --config apps\/console\/vite\.config\.mts/);
    expect(viteConfig).toMatch(/outDir: path\.join\(here, '\.\.', '\.\.', 'dist', 'apps', 'console'\)/);
    const runtime = dockerfile.slice(dockerfile.lastIndexOf('\nFROM '));
    const workdir = /^WORKDIR (\S+)$/m.exec(runtime)?.[1];
    const consoleCopy = /^COPY --from=build \/workspace\/dist\/apps\/console\/ (\S+)$/m.exec(runtime)?.[1];
    expect(workdir).toBeDefined();
    expect(consoleCopy?.replace(/\/$/, '')).toBe(path.posix.join(workdir!, '..', 'console'));
  });

  it('when a service has a misspelled key, then the schema check names it', () => {
    const broken = compose();
    broken.services.gateway.restart_policy = 'always';
    expect(composeSchemaProblems(broken).join('\n')).toMatch(/\/services\/gateway must NOT have additional properties.*restart_policy/);
  });

  it('when a port is published on every interface, then the port check names the service', () => {
    const broken = compose();
    broken.services.gateway.ports = ['3000:3000'];
    expect(composePortProblems(broken)).toEqual([expect.stringMatching(/^service gateway: port "3000:3000" is published on every interface/)]);
  });

  it('when a service keeps the default stop grace or one shorter than the drain, then the check names it', () => {
    const broken = compose();
    delete broken.services.mapper.stop_grace_period;
    broken.services.gateway.stop_grace_period = '15s';
    broken.services.applier.stop_grace_period = '1m';
    expect(composeStopGraceProblems(broken, 20_000)).toEqual([
      'service gateway: stop_grace_period (15s) must exceed the drain (20 s)',
      'service mapper: stop_grace_period (10s, the default) must exceed the drain (20 s)',
    ]);
  });
});
