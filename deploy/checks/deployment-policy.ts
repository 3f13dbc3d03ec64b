import { describeManifest, type Manifest } from './yaml-documents';

interface Probe {
  httpGet?: { path?: string };
}
interface Container {
  name: string;
  ports?: { name?: string; containerPort: number }[];
  resources?: { requests?: Record<string, unknown>; limits?: Record<string, unknown> };
  securityContext?: { readOnlyRootFilesystem?: boolean; allowPrivilegeEscalation?: boolean; runAsNonRoot?: boolean; capabilities?: { drop?: string[] } };
  livenessProbe?: Probe;
  readinessProbe?: Probe;
  lifecycle?: { preStop?: { sleep?: { seconds?: number } } };
}
interface PodSpec {
  terminationGracePeriodSeconds?: number;
  securityContext?: { runAsNonRoot?: boolean; runAsUser?: number };
  containers: Container[];
}
type Labels = Record<string, string>;

const podOf = (deployment: Manifest) =>
  (deployment.spec as { template: { spec: PodSpec; metadata?: { labels?: Labels; annotations?: Record<string, string> } } }).template;
const selects = (selector: Labels | undefined, labels: Labels | undefined) =>
  !!selector && Object.keys(selector).length > 0 && Object.entries(selector).every(([key, value]) => labels?.[key] === value);

/**
 * The rules every Deployment of deploy/ keeps (issue 15): requests and limits, a non-root
 * read-only container, liveness on the process alone (/healthz) and readiness on the
 * dependencies (/readyz), a grace period longer than the preStop pause plus the drain, a
 * PodDisruptionBudget, Prometheus told to scrape /metrics at a port a container listens on
 * (the alerts of deploy/monitoring read metrics only the workers record), and no replica count
 * where an autoscaler sets it. Answers one line per broken rule.
 */
export function deploymentPolicyProblems(manifests: readonly Manifest[], drainMs: number): string[] {
  const problems: string[] = [];
  const budgets = manifests.filter((manifest) => manifest.kind === 'PodDisruptionBudget');
  const scalers = manifests.filter((manifest) => manifest.kind === 'HorizontalPodAutoscaler' || manifest.kind === 'ScaledObject');
  for (const deployment of manifests.filter((manifest) => manifest.kind === 'Deployment')) {
    const name = describeManifest(deployment);
    const pod = podOf(deployment);
    const spec = pod.spec;
    if (spec.securityContext?.runAsNonRoot !== true) problems.push(`${name}: pod securityContext.runAsNonRoot must be true`);
    for (const container of spec.containers) {
      const where = `${name} container ${container.name}`;
      for (const kind of ['requests', 'limits'] as const) {
        for (const resource of ['cpu', 'memory']) {
          if (container.resources?.[kind]?.[resource] === undefined) problems.push(`${where}: resources.${kind}.${resource} is missing`);
        }
      }
      const security = container.securityContext;
      if (security?.readOnlyRootFilesystem !== true) problems.push(`${where}: securityContext.readOnlyRootFilesystem must be true`);
      if (security?.allowPrivilegeEscalation !== false) problems.push(`${where}: securityContext.allowPrivilegeEscalation must be false`);
      if (!security?.capabilities?.drop?.includes('ALL')) problems.push(`${where}: securityContext.capabilities.drop must include ALL`);
      if (container.livenessProbe?.httpGet?.path !== '/healthz') problems.push(`${where}: livenessProbe must GET /healthz (the process alone)`);
      if (container.readinessProbe?.httpGet?.path !== '/readyz') problems.push(`${where}: readinessProbe must GET /readyz (the dependencies)`);
      const pauseMs = (container.lifecycle?.preStop?.sleep?.seconds ?? 0) * 1000;
      const graceMs = (spec.terminationGracePeriodSeconds ?? 30) * 1000;
      if (graceMs <= pauseMs + drainMs) {
        problems.push(
          `${where}: terminationGracePeriodSeconds (${graceMs / 1000}) must exceed the preStop pause and the drain (${(pauseMs + drainMs) / 1000} s)`,
        );
      }
    }
    const scrape = pod.metadata?.annotations ?? {};
    const ports = spec.containers.flatMap((container) => (container.ports ?? []).map((port) => String(port.containerPort)));
    if (scrape['prometheus.io/scrape'] !== 'true' || scrape['prometheus.io/path'] !== '/metrics' || !ports.includes(scrape['prometheus.io/port'] ?? '')) {
      problems.push(
        `${name}: pod annotations must have Prometheus scrape /metrics at a container port (prometheus.io/scrape, prometheus.io/port, prometheus.io/path)`,
      );
    }
    const scaler = scalers.find((candidate) => (candidate.spec as { scaleTargetRef?: { name?: string } }).scaleTargetRef?.name === deployment.metadata?.name);
    if (scaler && (deployment.spec as { replicas?: unknown }).replicas !== undefined) {
      problems.push(`${name}: spec.replicas must not be set: ${describeManifest(scaler)} scales it, and every apply would set it back`);
    }
    const covered = budgets.some((budget) => selects((budget.spec as { selector?: { matchLabels?: Labels } }).selector?.matchLabels, pod.metadata?.labels));
    if (!covered) problems.push(`${name}: no PodDisruptionBudget selects its pods`);
  }
  return problems;
}
