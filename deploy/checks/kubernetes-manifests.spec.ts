import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { SHUTDOWN_TIMEOUT_MS } from '@ecomm-sync/runtime';
import { namesOf, QUEUES, type QueueName } from '@ecomm-sync/messaging';
import { deploymentPolicyProblems } from './deployment-policy';
import { promqlProblems } from './monitoring-files';
import { schemaProblems } from './kubernetes-schemas';
import { readinessAddressProblems } from './readiness-addresses';
import { parseYamlDocuments, readYamlDocuments, type Manifest } from './yaml-documents';

const K8S = path.join(__dirname, '..', 'k8s');
const manifestFiles = readdirSync(K8S).filter((file) => file.endsWith('.yaml') && file !== 'kustomization.yaml');
const manifestsOf = (file: string) => readYamlDocuments(path.join(K8S, file)) as Manifest[];
const allManifests = () => manifestFiles.flatMap(manifestsOf);
const copy = <T>(value: T): T => structuredClone(value);

describe('the Kubernetes manifests in deploy/k8s', () => {
  it.each(manifestFiles)('when %s is checked against the Kubernetes and KEDA schemas, then every object is valid', (file) => {
    const manifests = manifestsOf(file);
    expect(manifests.length).toBeGreaterThan(0);
    expect(manifests.flatMap(schemaProblems)).toEqual([]);
  });

  it('when the kustomization is read, then it lists every manifest file and only existing ones', () => {
    const [kustomization] = readYamlDocuments(path.join(K8S, 'kustomization.yaml')) as { resources: string[] }[];
    const applied = manifestFiles.filter((file) => file !== 'secret.example.yaml'); // copied to secret.yaml by the operator
    expect([...kustomization.resources].sort()).toEqual([...applied].sort());
  });

  it('when the Deployments are checked against the operating rules, then none is broken', () => {
    expect(deploymentPolicyProblems(allManifests(), SHUTDOWN_TIMEOUT_MS)).toEqual([]);
  });

  it('when an autoscaled Deployment sets its replicas, then the rule says every apply would set it back', () => {
    const manifests = allManifests();
    const gateway = copy(manifests.find((m) => m.kind === 'Deployment' && m.metadata?.name === 'gateway')!);
    (gateway.spec as { replicas?: number }).replicas = 2;
    const others = manifests.filter((m) => m.kind !== 'Deployment' || m.metadata?.name !== 'gateway');
    expect(deploymentPolicyProblems([gateway, ...others], SHUTDOWN_TIMEOUT_MS)).toEqual([
      'Deployment gateway: spec.replicas must not be set: HorizontalPodAutoscaler gateway scales it, and every apply would set it back',
    ]);
  });

  it('when every Deployment is looked for, then each service of the stack has one', () => {
    const deployments = allManifests()
      .filter((manifest) => manifest.kind === 'Deployment')
      .map((manifest) => manifest.metadata?.name);
    expect(deployments.sort()).toEqual(['alert-evaluator', 'applier', 'crm', 'gateway', 'import-coordinator', 'mapper', 'webhook-dispatcher']);
  });

  it("when the gateway's SERVICE_READINESS_URLS is read, then it names every service, the gateway too, by a headless Service that resolves to all its pods", () => {
    expect(readinessAddressProblems(allManifests())).toEqual([]);
  });

  it("when the gateway's environment is read, then it trusts the in-cluster ingress, so that the failed-authentication throttle counts each client, not the ingress", () => {
    const gateway = allManifests().find((m) => m.kind === 'Deployment' && m.metadata?.name === 'gateway')!;
    const env = (gateway.spec as { template: { spec: { containers: { env: { name: string; value?: string }[] }[] } } }).template.spec.containers[0].env;
    expect(env.find((e) => e.name === 'GATEWAY_TRUSTED_PROXIES')?.value).toMatch(/uniquelocal/);
  });

  it.each(['gateway', 'alert-evaluator'])(
    'when the %s environment is read, then it has GATEWAY_PUBLIC_URL (links in answers, and alert notices to the console)',
    (name) => {
      const manifests = allManifests();
      const deployment = manifests.find((m) => m.kind === 'Deployment' && m.metadata?.name === name)!;
      const [container] = (
        deployment.spec as {
          template: { spec: { containers: { env?: { name: string; value?: string }[]; envFrom?: { configMapRef?: { name: string } }[] }[] } };
        }
      ).template.spec.containers;
      const fromMaps = (container.envFrom ?? [])
        .map((source) => manifests.find((m) => m.kind === 'ConfigMap' && m.metadata?.name === source.configMapRef?.name))
        .map((map) => (map as { data?: Record<string, string> } | undefined)?.data?.GATEWAY_PUBLIC_URL);
      const value = container.env?.find((e) => e.name === 'GATEWAY_PUBLIC_URL')?.value ?? fromMaps.find(Boolean);
      expect(value).toMatch(/^https:\/\//);
    },
  );

  it('when the ScaledObjects are read, then each app scales on every queue it consumes, each lane of it (the ConfigMap’s AMQP_PREFIX)', () => {
    const manifests = allManifests();
    const prefix = (manifests.find((m) => m.kind === 'ConfigMap') as { data: Record<string, string> }).data.AMQP_PREFIX;
    const triggersOf = (app: string) =>
      (
        manifests.find((m) => m.kind === 'ScaledObject' && m.metadata?.name === app)?.spec as { triggers?: { metadata: { queueName: string } }[] } | undefined
      )?.triggers?.map((trigger) => trigger.metadata.queueName) ?? [];
    const missing = (Object.keys(QUEUES) as QueueName[]).flatMap((queue) => {
      const { main, bulk } = namesOf(prefix, queue);
      return [main, bulk].filter((name): name is string => name !== null && !triggersOf(queue.split('.')[0]).includes(name));
    });
    expect(missing).toEqual([]);
  });

  it('when a ScaledObject scales on a Prometheus query, then the query parses and its threshold is a number', () => {
    const triggers = allManifests()
      .filter((m) => m.kind === 'ScaledObject')
      .flatMap((m) =>
        ((m.spec as { triggers?: { type: string; metadata: Record<string, string> }[] }).triggers ?? []).map((trigger) => ({ app: m.metadata?.name, trigger })),
      )
      .filter(({ trigger }) => trigger.type === 'prometheus');
    expect(triggers.map(({ app }) => app)).toEqual(['import-coordinator']);
    const problems = triggers.flatMap(({ app, trigger: { metadata } }) => [
      ...promqlProblems(metadata.query ?? '').map((problem) => `${app}: ${problem}`),
      ...(/^\d+(\.\d+)?$/.test(metadata.threshold ?? '') ? [] : [`${app}: threshold "${metadata.threshold}" is not a number`]),
      ...(/^https?:\/\//.test(metadata.serverAddress ?? '') ? [] : [`${app}: serverAddress is not an http(s) address`]),
    ]);
    expect(problems).toEqual([]);
    expect(promqlProblems('max(ecomm_import_release_portals_waiting{namespace="ecomm-sync"}')).not.toEqual([]); // the check sees a broken one
  });

  describe('a broken copy fails', () => {
    const readinessEnvOf = (manifests: Manifest[]) => {
      const gateway = manifests.find((m) => m.kind === 'Deployment' && m.metadata?.name === 'gateway')!;
      return (gateway.spec as { template: { spec: { containers: { env: { name: string; value?: string }[] }[] } } }).template.spec.containers[0].env;
    };
    const serviceSpecOf = (manifests: Manifest[], name: string) =>
      manifests.find((m) => m.kind === 'Service' && m.metadata?.name === name)!.spec as Record<string, unknown>;

    it('when the readiness addresses miss a service, name a Service that does not exist or a port no pod listens on, then the check names each', () => {
      const manifests = allManifests().map(copy);
      const env = readinessEnvOf(manifests);
      env.find((e) => e.name === 'SERVICE_READINESS_URLS')!.value =
        'mapper=http://mapper-replicas:3299,applier=http://appliers:3202,import-coordinator=http://import-coordinator-replicas:3203,crm=http://crm-replicas:3100';
      expect(readinessAddressProblems(manifests)).toEqual([
        'SERVICE_READINESS_URLS does not name gateway',
        'SERVICE_READINESS_URLS does not name webhook-dispatcher',
        'SERVICE_READINESS_URLS does not name alert-evaluator',
        'SERVICE_READINESS_URLS: Service mapper-replicas has no port 3299',
        'SERVICE_READINESS_URLS: mapper at port 3299, which no container of Deployment mapper listens on',
        'SERVICE_READINESS_URLS: applier at http://appliers:3202, but no Service is named appliers',
      ]);
      env.splice(
        env.findIndex((e) => e.name === 'SERVICE_READINESS_URLS'),
        1,
      );
      expect(readinessAddressProblems(manifests)).toEqual([expect.stringMatching(/SERVICE_READINESS_URLS is not set/)]);
    });

    it('when a readiness address is a Service that reaches one pod, hides not-ready pods or selects other pods, then the check names each', () => {
      const manifests = allManifests().map(copy);
      delete serviceSpecOf(manifests, 'mapper-replicas').clusterIP;
      serviceSpecOf(manifests, 'applier-replicas').publishNotReadyAddresses = false;
      serviceSpecOf(manifests, 'crm-replicas').selector = { 'app.kubernetes.io/name': 'gateway' };
      expect(readinessAddressProblems(manifests)).toEqual([
        'Service mapper-replicas is not headless (clusterIP: None): its name reaches one pod, not every replica',
        'Service applier-replicas does not publish not-ready addresses: a pod that is not ready would vanish from the page',
        'Service crm-replicas does not select the pods of Deployment crm',
      ]);
    });

    it("when the readiness addresses name the CRM's own Service (a cluster address), then the check says it reaches one pod", () => {
      const manifests = allManifests().map(copy);
      const env = readinessEnvOf(manifests).find((e) => e.name === 'SERVICE_READINESS_URLS')!;
      env.value = env.value!.replace('crm=http://crm-replicas:3100', 'crm=http://crm:3100');
      expect(readinessAddressProblems(manifests)).toEqual([
        'Service crm is not headless (clusterIP: None): its name reaches one pod, not every replica',
        'Service crm does not publish not-ready addresses: a pod that is not ready would vanish from the page',
      ]);
    });

    const gateway = () => copy(manifestsOf('gateway.yaml').find((manifest) => manifest.kind === 'Deployment')!);

    it.each([
      ['replicas is not a number', (deployment: Manifest) => ((deployment.spec as { replicas: unknown }).replicas = 'two'), /spec\/replicas must be integer/],
      [
        'a container has no name',
        (deployment: Manifest) =>
          delete (deployment.spec as never as { template: { spec: { containers: { name?: string }[] } } }).template.spec.containers[0].name,
        /containers\/0 must have required property name/,
      ],
    ])('when %s, then the schema check names it', (_what, breakIt, message) => {
      const deployment = gateway();
      breakIt(deployment);
      expect(schemaProblems(deployment).join('\n')).toMatch(message);
    });

    it('when a ScaledObject has no target name, then the KEDA schema check names it', () => {
      const scaled = copy(manifestsOf('scaling.yaml').find((manifest) => manifest.kind === 'ScaledObject')!);
      delete (scaled.spec as { scaleTargetRef: { name?: string } }).scaleTargetRef.name;
      expect(schemaProblems(scaled).join('\n')).toMatch(/ScaledObject mapper: data\/spec\/scaleTargetRef must have required property name/);
    });

    it('when a kind has no schema, then the check says so instead of passing it', () => {
      expect(schemaProblems({ apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w' } })).toEqual([
        'Widget w: no schema for example.com/v1/Widget (deploy/checks/kubernetes-schemas.ts)',
      ]);
    });

    it('when a file is not YAML, then reading it fails naming the file', () => {
      const broken = readFileSync(path.join(K8S, 'gateway.yaml'), 'utf8').replace('kind: Deployment', 'kind: [Deployment');
      expect(() => parseYamlDocuments(broken, 'gateway.yaml')).toThrow(/gateway\.yaml/);
    });

    it('when a Deployment breaks the operating rules, then each broken rule is named', () => {
      const deployment = gateway();
      const pod = (deployment.spec as { template: { spec: Record<string, unknown> & { containers: Record<string, unknown>[] } } }).template.spec;
      pod.terminationGracePeriodSeconds = 20;
      delete pod.securityContext;
      const [container] = pod.containers;
      container.resources = { requests: { cpu: '100m' } };
      container.securityContext = { readOnlyRootFilesystem: false };
      container.livenessProbe = { httpGet: { path: '/readyz', port: 'http' } };
      (deployment.spec as { template: { metadata: { annotations: Record<string, string> } } }).template.metadata.annotations['prometheus.io/port'] = '9999';
      const budgets = manifestsOf('disruption-budgets.yaml').filter((budget) => budget.metadata?.name !== 'gateway');
      expect(deploymentPolicyProblems([deployment, ...budgets], SHUTDOWN_TIMEOUT_MS)).toEqual([
        'Deployment gateway: pod securityContext.runAsNonRoot must be true',
        'Deployment gateway container gateway: resources.requests.memory is missing',
        'Deployment gateway container gateway: resources.limits.cpu is missing',
        'Deployment gateway container gateway: resources.limits.memory is missing',
        'Deployment gateway container gateway: securityContext.readOnlyRootFilesystem must be true',
        'Deployment gateway container gateway: securityContext.allowPrivilegeEscalation must be false',
        'Deployment gateway container gateway: securityContext.capabilities.drop must include ALL',
        'Deployment gateway container gateway: livenessProbe must GET /healthz (the process alone)',
        'Deployment gateway container gateway: terminationGracePeriodSeconds (20) must exceed the preStop pause and the drain (25 s)',
        'Deployment gateway: pod annotations must have Prometheus scrape /metrics at a container port (prometheus.io/scrape, prometheus.io/port, prometheus.io/path)',
        'Deployment gateway: no PodDisruptionBudget selects its pods',
      ]);
    });
  });
});
