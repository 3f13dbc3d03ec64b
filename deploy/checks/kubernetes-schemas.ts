import { ScaledObject, TriggerAuthentication } from '@kubernetes-models/keda/keda.sh/v1alpha1';
import { Deployment } from 'kubernetes-models/apps/v1';
import { HorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2';
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1';
import { ConfigMap, Namespace, Secret, Service } from 'kubernetes-models/v1';
import { describeManifest, type Manifest } from './yaml-documents';

interface ModelClass {
  apiVersion: string;
  kind: string;
  // The base Model type does not resolve under this workspace's module resolution; validate() is there at run time.
  new (data: never): object;
}

/**
 * The kinds deploy/ may use, each with the JSON schema of its API version: Kubernetes' own from
 * kubernetes-models (generated from the Kubernetes OpenAPI document), KEDA's from its CRDs
 * (@kubernetes-models/keda). A kind missing here fails the check: add its model.
 */
const MODELS: readonly ModelClass[] = [
  Deployment,
  Service,
  ConfigMap,
  Namespace,
  Secret,
  HorizontalPodAutoscaler,
  PodDisruptionBudget,
  ScaledObject,
  TriggerAuthentication,
];

/** What is wrong with one manifest against its kind's schema (empty: valid). */
export function schemaProblems(manifest: Manifest): string[] {
  const model = MODELS.find((candidate) => candidate.apiVersion === manifest.apiVersion && candidate.kind === manifest.kind);
  if (!model) return [`${describeManifest(manifest)}: no schema for ${manifest.apiVersion}/${manifest.kind} (deploy/checks/kubernetes-schemas.ts)`];
  try {
    (new model(manifest as never) as { validate(): void }).validate();
    return [];
  } catch (error) {
    return [`${describeManifest(manifest)}: ${error instanceof Error ? error.message : String(error)}`];
  }
}
