/** The chaos suite's vocabulary, shared by the scenario, its checks and the runner (no file imports back). */

/** What a scenario breaks mid-stream: one app process, the database server, or the broker node. */
export type Fault = 'gateway' | 'mapper' | 'applier' | 'crm' | 'mongodb' | 'rabbitmq';
export const FAULTS: Fault[] = ['gateway', 'mapper', 'applier', 'crm', 'mongodb', 'rabbitmq'];

export interface ChaosOptions {
  /** Objects per scenario: half contacts, half deals associated with them. */
  objects: number;
  /** Messages per request. */
  batchSize: number;
  /** Requests sent per second (creates and updates together). */
  requestsPerSecond: number;
  /** How long the killed part stays down. */
  downMs: number;
  /** Where the apps' logs go (per scenario). */
  log?: (line: string) => void;
}

export interface ChaosResult {
  fault: Fault;
  /** Objects whose every message was acknowledged (204). */
  acknowledged: number;
  /** Objects in the CRM once, with the newest value of every property (and deals with their contact). */
  applied: number;
  lost: number;
  duplicated: number;
  wrongValue: number;
  /** Deals in the CRM with their newest values but without the association to their contact. */
  unassociated: number;
  /** Messages left in dead-letter queues (each must have an error record; none is expected here). */
  deadLettered: number;
  /** Answers other than 204 while the fault lasted, by status (0: no answer); 500s are defects. */
  answers: Record<string, number>;
  seconds: number;
  examples: string[];
}
