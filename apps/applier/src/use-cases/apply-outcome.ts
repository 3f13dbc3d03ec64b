import type { MappedChange, Problem } from '@ecomm-sync/contracts';
import type { NewSyncError, ProcessedRecord } from '@ecomm-sync/data-access';

/** A change kept until the objects it names (`TYPE:externalObjectId`) are synced. */
export interface WaitingEntry {
  change: MappedChange;
  waitingFor: string[];
}

/** What the application of one group produced; written to MongoDB after the CRM writes. */
export class ApplyOutcome {
  readonly records: ProcessedRecord[] = [];
  /** Not processed: they apply once the objects they need arrive (a line item before its deal). */
  readonly waiting: WaitingEntry[] = [];
  /** Processed, with associations to objects not synced yet: written again when those arrive (a deal before its contact). */
  readonly laterAssociations: WaitingEntry[] = [];
  readonly errors: NewSyncError[] = [];
  readonly clean: string[] = [];

  constructor(readonly now: number) {}

  processed(change: MappedChange, problems: Problem[], link?: ProcessedRecord['link']) {
    this.records.push({
      externalObjectId: change.externalObjectId,
      rev: change.rev,
      settingsRev: change.settingsRev,
      processedAt: this.now,
      changedAt: change.changedAt,
      ...(link ? { link } : {}),
    });
    this.problems(change, problems);
  }

  /** Not processed yet: its error is recorded, and it applies once the objects it waits for arrive. */
  waits(change: MappedChange, problems: Problem[], waitingFor: string[]) {
    this.waiting.push({ change, waitingFor });
    this.problems(change, problems);
  }

  /** Processed and written; its associations with these objects are made once they arrive. */
  associatesLater(change: MappedChange, waitingFor: string[]) {
    this.laterAssociations.push({ change, waitingFor });
  }

  problems(change: MappedChange, problems: Problem[]) {
    if (problems.length === 0) {
      this.clean.push(change.externalObjectId);
      return;
    }
    for (const problem of problems) {
      this.errors.push({
        externalObjectId: change.externalObjectId,
        rev: change.rev,
        settingsRev: change.settingsRev,
        type: problem.type,
        details: problem.details,
        ...(problem.crm ? { crm: problem.crm } : {}),
        changedAt: change.changedAt,
        erroredAt: this.now,
      });
    }
  }

  /** Objects whose waiting entry is kept (waiting, or associating later); the others' entries go. */
  get stillWaiting(): Set<string> {
    return new Set([...this.waiting, ...this.laterAssociations].map(({ change }) => change.externalObjectId));
  }
}
