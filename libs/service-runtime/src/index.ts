export { runService } from './run-service';
export type { ServiceContext, ServiceOptions, InfrastructureConfig } from './run-service';
export { runPeriodically } from './periodic';
export { startObservability } from './observability';
export type { ObservabilityConfig } from './observability';
