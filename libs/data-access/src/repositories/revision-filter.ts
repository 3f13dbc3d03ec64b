import type { Revision } from '@ecomm-sync/domain';

/** An object's kept change, as far as it is not newer than this revision. */
export interface KeptUpTo extends Revision {
  externalObjectId: string;
}

/**
 * Matches a stored document whose `change` is not newer than the revision (compareRevisions'
 * order): work on an older revision never replaces or removes a change a newer one left.
 */
export const changeNotNewerThan = ({ rev, settingsRev }: Revision) => ({
  $or: [{ 'change.rev': { $lt: rev } }, { 'change.rev': rev, 'change.settingsRev': { $lte: settingsRev } }],
});
