import { parseServiceAddresses } from '@ecomm-sync/domain';
import type { Manifest } from './yaml-documents';

type Labels = Record<string, string>;
interface Container {
  env?: { name: string; value?: string }[];
  ports?: { name?: string; containerPort: number }[];
}
interface ServiceSpec {
  clusterIP?: string;
  publishNotReadyAddresses?: boolean;
  selector?: Labels;
  ports?: { port: number; targetPort?: number | string }[];
}

const named = (manifests: Manifest[], kind: string, name: string) => manifests.find((m) => m.kind === kind && m.metadata?.name === name);
const podOf = (deployment: Manifest) => (deployment.spec as { template: { metadata?: { labels?: Labels }; spec: { containers: Container[] } } }).template;

/**
 * The gateway's SERVICE_READINESS_URLS (the console's operations page, decisions 0036 and 0054)
 * against the manifests: every Deployment, the gateway's own included, is named once, by a headless
 * Service (its name resolves to every pod, not-ready ones too) that selects its pods, on a port its
 * containers answer /readyz on (a pod's address is reached directly, so the Service maps no port).
 * Answers one line per problem.
 */
export function readinessAddressProblems(manifests: Manifest[]): string[] {
  const gateway = named(manifests, 'Deployment', 'gateway');
  if (!gateway) return ['no Deployment gateway'];
  const list = podOf(gateway)
    .spec.containers.flatMap((c) => c.env ?? [])
    .find((e) => e.name === 'SERVICE_READINESS_URLS')?.value;
  if (!list) return ['Deployment gateway: SERVICE_READINESS_URLS is not set (the console would ask 127.0.0.1 for each service)'];
  const addresses = parseServiceAddresses(list);
  const problems: string[] = [];
  const deployments = manifests.filter((m) => m.kind === 'Deployment').map((m) => m.metadata?.name ?? '?');
  for (const missing of deployments.filter((name) => !addresses.some((a) => a.service === name)))
    problems.push(`SERVICE_READINESS_URLS does not name ${missing}`);
  for (const { service, url } of addresses) {
    const { hostname, port } = new URL(url);
    const deployment = named(manifests, 'Deployment', service);
    const target = named(manifests, 'Service', hostname);
    if (!deployment) problems.push(`SERVICE_READINESS_URLS names ${service}, which has no Deployment`);
    if (!target) {
      problems.push(`SERVICE_READINESS_URLS: ${service} at ${url}, but no Service is named ${hostname}`);
      continue;
    }
    const spec = target.spec as ServiceSpec;
    if (spec.clusterIP !== 'None') problems.push(`Service ${hostname} is not headless (clusterIP: None): its name reaches one pod, not every replica`);
    if (spec.publishNotReadyAddresses !== true)
      problems.push(`Service ${hostname} does not publish not-ready addresses: a pod that is not ready would vanish from the page`);
    if (!spec.ports?.some((p) => p.port === Number(port))) problems.push(`SERVICE_READINESS_URLS: Service ${hostname} has no port ${port}`);
    if (!deployment) continue;
    const pod = podOf(deployment);
    if (!Object.entries(spec.selector ?? {}).every(([key, value]) => pod.metadata?.labels?.[key] === value) || !spec.selector)
      problems.push(`Service ${hostname} does not select the pods of Deployment ${service}`);
    if (!pod.spec.containers.some((c) => (c.ports ?? []).some((p) => p.containerPort === Number(port))))
      problems.push(`SERVICE_READINESS_URLS: ${service} at port ${port}, which no container of Deployment ${service} listens on`);
  }
  return problems;
}
