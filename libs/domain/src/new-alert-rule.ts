import { INITIAL_ALERT_STATE, type AlertState } from './alert-machine';

/** What a rule starts with, whoever makes it (the console, install defaults, a test builder). */
export interface NewAlertRuleEvaluation {
  state: AlertState;
  stateRev: number;
  /** Due at once: the evaluator's next tick measures it. */
  nextDueAt: number;
  lastEvaluatedAt: number | null;
  /** No notice owed. */
  outbox: null;
}

/** A new rule's evaluation fields: never evaluated, due at once, nothing owed (decision 0053). */
export const newAlertRuleEvaluation = (): NewAlertRuleEvaluation => ({
  state: INITIAL_ALERT_STATE,
  stateRev: 0,
  nextDueAt: 0,
  lastEvaluatedAt: null,
  outbox: null,
});
