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

/** One service's readiness, as its GET /readyz answered (or did not). */
export interface ConsoleServiceReadiness {
  service: string;
  url: string;
  ready: boolean;
  /** The HTTP status, or null when it did not answer. */
  status: number | null;
  /** The dependencies it names as failing, or why it could not be asked. */
  detail: string;
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
