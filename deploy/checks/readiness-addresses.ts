import { parseServiceAddresses } from '@ecomm-sync/domain';
import type { Manifest } from './yaml-documents';

type Labels = Record<string, string>;
interface Container {
  env?: { name: string; value?: string }[];
  ports?: { name?: string; containerPort: number }[];
}
interface ServicePort {
  port: number;
  targetPort?: number | string;
}

const named = (manifests: Manifest[], kind: string, name: string) => manifests.find((m) => m.kind === kind && m.metadata?.name === name);
const podOf = (deployment: Manifest) => (deployment.spec as { template: { metadata?: { labels?: Labels }; spec: { containers: Container[] } } }).template;

/**
 * The gateway's SERVICE_READINESS_URLS (the console's operations page, decision 0036) against the
 * manifests: every other Deployment is named once, by a Service that selects its pods, on a port
 * that reaches the container port its /readyz answers on. Answers one line per problem.
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
  const others = manifests.filter((m) => m.kind === 'Deployment' && m.metadata?.name !== 'gateway').map((m) => m.metadata?.name ?? '?');
  for (const missing of others.filter((name) => !addresses.some((a) => a.service === name))) problems.push(`SERVICE_READINESS_URLS does not name ${missing}`);
  for (const { service, url } of addresses) {
    const { hostname, port } = new URL(url);
    const deployment = named(manifests, 'Deployment', service);
    const target = named(manifests, 'Service', hostname);
    if (!deployment) problems.push(`SERVICE_READINESS_URLS names ${service}, which has no Deployment`);
    if (!target) {
      problems.push(`SERVICE_READINESS_URLS: ${service} at ${url}, but no Service is named ${hostname}`);
      continue;
    }
    const spec = target.spec as { selector?: Labels; ports?: ServicePort[] };
    const servicePort = spec.ports?.find((p) => p.port === Number(port));
    if (!servicePort) problems.push(`SERVICE_READINESS_URLS: Service ${hostname} has no port ${port}`);
    if (!deployment) continue;
    const pod = podOf(deployment);
    if (!Object.entries(spec.selector ?? {}).every(([key, value]) => pod.metadata?.labels?.[key] === value))
      problems.push(`Service ${hostname} does not select the pods of Deployment ${service}`);
    const containerPorts = pod.spec.containers.flatMap((c) => c.ports ?? []);
    if (
      servicePort &&
      !containerPorts.some(
        (p) =>
          p.name === servicePort.targetPort ||
          p.containerPort === servicePort.targetPort ||
          (servicePort.targetPort === undefined && p.containerPort === servicePort.port),
      )
    ) {
      problems.push(`Service ${hostname} port ${port} reaches no container port of Deployment ${service}`);
    }
  }
  return problems;
}
