import path from 'node:path';
import { composePortProblems, composeSchemaProblems } from './compose-file';
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
});
