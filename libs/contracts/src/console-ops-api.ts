/** The operator's console pages (decision 0036): dead letters, services' readiness, CRM budgets. */

/** A dead-lettered message as peeked (not taken out of its queue). */
export interface ConsoleDeadLetter {
  messageId: string | null;
  contentType: string | null;
  timestamp: number | null;
  headers: Record<string, unknown>;
  body: string;
  truncated: boolean;
}

export interface ConsoleDeadLetters {
  queue: string;
  /** How many the dead-letter queue holds; `results` has at most `limit` of them, from its head. */
  total: number;
  limit: number;
  results: ConsoleDeadLetter[];
}

/** One replica's readiness: one address the service's host resolved to, and its GET /readyz answer. */
export interface ConsoleReplicaReadiness {
  address: string;
  ready: boolean;
  /** The HTTP status, or null when it did not answer. */
  status: number | null;
  /** The dependencies it names as failing, or why it could not be asked. */
  detail: string;
}

/**
 * One service's readiness: each address its host resolves to is asked for /readyz (decision 0054;
 * in Kubernetes a headless Service resolves to every pod), a plain host to one.
 */
export interface ConsoleServiceReadiness {
  service: string;
  url: string;
  /** ready: every replica is; partly ready: some are; not ready: none is, or the host resolved to no address. */
  state: 'ready' | 'partly ready' | 'not ready';
  /** Every replica is ready. */
  ready: boolean;
  /** The status every replica answered, or null when they differ or none answered. */
  status: number | null;
  /** One replica: its answer; several: "k of n replicas ready" and each failing replica's answer. */
  detail: string;
  readyReplicas: number;
  /** By address; empty when the host resolved to none. */
  replicas: ConsoleReplicaReadiness[];
}

/** One CRM account's request budget and rate-limit state, with its portal's CRM health when known. */
export interface ConsoleCrmAccount {
  accountKey: string;
  portalId: number | null;
  usedInWindow: number;
  usedToday: number;
  pausedUntil: number | null;
  reason: string | null;
  /** The portal's CRM health (`sync/crm-health`): ok, or why its changes wait. */
  health: { state: string; message: string; parkedChanges: number } | null;
}
