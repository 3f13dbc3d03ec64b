import path from 'node:path';
import { stackEnvArguments, stackEnvOf, stackStarter } from './stack-env';

/** The repository (the bench runs bundled from dist/bench). */
export const root = path.resolve(__dirname, '..', '..');

/** What `npm run bench -- …` was asked for: read once, shared by the figures. */
export const quick = process.argv.includes('--quick');

/** `--only e2e` (or ingest, reapply, observability, fairness) runs one figure and records nothing: for profiling a change; `--only crm-budget` records its figure alone. */
const onlyAt = process.argv.indexOf('--only');
export const only = onlyAt >= 0 ? (process.argv[onlyAt + 1] ?? '') : null;

/** The number after `flag`, or null without the flag; a flag without a number stops the bench with a sentence. */
function numberAfter(flag: string): number | null {
  const at = process.argv.indexOf(flag);
  if (at < 0) return null;
  const value = Number(process.argv[at + 1]);
  if (!Number.isFinite(value) || value < 0) throw new Error(`${flag} needs a number of 0 or more, got "${process.argv[at + 1] ?? ''}"`);
  return value;
}

/** `--crm-max-wait-ms N`: the appliers' CRM_MAX_WAIT_MS in the CRM budget figure (their default when not given). */
const maxWaitAt = process.argv.indexOf('--crm-max-wait-ms');
export const crmMaxWaitMs = maxWaitAt >= 0 ? Number(process.argv[maxWaitAt + 1]) : null;

/** `--resume-patience-ms N`: the appliers' APPLIER_RESUME_PATIENCE_MS in the CRM budget figure (0: a resume never waits out a window). */
const patienceAt = process.argv.indexOf('--resume-patience-ms');
export const resumePatienceMs = patienceAt >= 0 ? Number(process.argv[patienceAt + 1]) : null;

/** `--crm-latency-ms N`: the CRM budget figure's proxy holds each CRM answer N ms more, as a hosted CRM far away answers. */
export const crmLatencyMs = numberAfter('--crm-latency-ms');

/** `--chunks-at-once N`: the appliers' CRM_CHUNKS_AT_ONCE in the CRM budget figure (their default when not given). */
export const chunksAtOnce = numberAfter('--chunks-at-once');

/** `--log-figures e2e,crm-budget`: which figures the CRM request log figure runs with the log off and on (default both). */
const logFiguresAt = process.argv.indexOf('--log-figures');
export const crmRequestLogFigures = (logFiguresAt >= 0 ? (process.argv[logFiguresAt + 1] ?? '') : 'e2e,crm-budget').split(',').filter(Boolean);

/** `--stack-env KEY=VALUE` (repeatable): settings of every stack the run starts, over each figure's own (stack-env.ts). */
export const stackEnv = stackEnvOf(process.argv, root);

/** Starts a figure's stack with the run's `--stack-env` settings over the figure's own. */
export const startStack = stackStarter(stackEnv);

/** `--noisy`: record even when the machine was not quiet at a figure's start (the entry says so). */
export const recordWhenNoisy = process.argv.includes('--noisy');

export const SIZES = quick
  ? {
      ingestRequests: 1_000,
      e2eObjects: 20_000,
      reapplyObjects: 20_000,
      crmBudget: { perType: 1_000, targetSeconds: 20 },
      fairness: { floodObjects: 100_000, trickleSeconds: 30 },
    }
  : {
      ingestRequests: 3_000,
      e2eObjects: 100_000,
      reapplyObjects: 100_000,
      crmBudget: { perType: 5_000, targetSeconds: 60 },
      fairness: { floodObjects: 100_000, trickleSeconds: 60 },
    };

/** The command line as it is recorded beside the figures. */
export const command = `npm run bench -- ${[
  quick ? '--quick' : '',
  only !== null ? `--only ${only}` : '',
  crmMaxWaitMs !== null ? `--crm-max-wait-ms ${crmMaxWaitMs}` : '',
  resumePatienceMs !== null ? `--resume-patience-ms ${resumePatienceMs}` : '',
  crmLatencyMs !== null ? `--crm-latency-ms ${crmLatencyMs}` : '',
  chunksAtOnce !== null ? `--chunks-at-once ${chunksAtOnce}` : '',
  logFiguresAt >= 0 ? `--log-figures ${crmRequestLogFigures.join(',')}` : '',
  recordWhenNoisy ? '--noisy' : '',
  stackEnvArguments(stackEnv),
]
  .filter(Boolean)
  .join(' ')}`.replace(/ -- $/, '');

export const log = (message: string): void => console.log(`[bench] ${message}`);

/**
 * Environment of the stacks whose figures measure what the service's path costs (ingest,
 * observability, end to end, re-apply): the per-tenant policies are off, the credential's rate
 * limit and the portal's intake pace (decision 57), since one portal sends the whole load. The
 * fairness figure keeps them as configured: it measures the policies.
 */
export const PATH_COST_ENV = { RATE_LIMIT_REQUESTS: '1000000000', INTAKE_OBJECTS_PER_SECOND: '0' };
