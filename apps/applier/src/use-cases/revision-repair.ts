import type { ObjectScope } from '@ecomm-sync/contracts';
import type { RecordOutcome } from '@ecomm-sync/data-access';
import { raceRepair } from '@ecomm-sync/domain';
import type { Logger } from '@ecomm-sync/runtime';
import { regroup, type ChangeGroup, type LinkedObjects } from './change-group';
import type { WaitingChanges } from './waiting-changes';

/**
 * Asks for the newest state of objects to be mapped and sent again, to be written even if its
 * revision was applied already (the mapper answers with a re-apply message).
 */
export type RequestRefresh = (scope: ObjectScope, externalObjectIds: string[]) => Promise<void>;

/**
 * Newest wins across replicas (decision 18): what the applier does about changes it skips as not
 * newer, and about objects another writer recorded while it wrote them.
 */
export class RevisionRepair {
  constructor(
    private readonly waiting: Pick<WaitingChanges, 'done'>,
    private readonly requestRefresh: RequestRefresh,
    private readonly logger: Logger,
  ) {}

  /**
   * Changes not to apply, since the same or a newer revision was applied: a waiting entry among
   * them is done with. One from a message delivered before may have been written to the CRM by
   * the earlier attempt, after the newer revision (a crash between writing and recording): the
   * newest state is asked for again.
   */
  async doneWith(group: ChangeGroup, externalObjectIds: string[]): Promise<void> {
    if (externalObjectIds.length === 0) return;
    await this.waiting.done(group, externalObjectIds);
    const suspect = externalObjectIds.filter((id) => group.suspect.has(id));
    if (suspect.length > 0) await this.requestRefresh(group, suspect);
  }

  /**
   * Another writer (an applier replica) claimed some of these objects while this group wrote them,
   * so the CRM holds whichever write landed last. Where a newer revision than this group's is
   * recorded (`superseded`), the newest state is asked for again, first, so that nothing below can
   * lose the request; where nothing newer is (`contended`), it claims and writes it again now, and
   * asks for the newest state if that rewrite fails. Within one process the locks keep this from
   * happening.
   */
  async repair(
    group: ChangeGroup,
    recorded: RecordOutcome,
    round: number,
    linked: LinkedObjects,
    writeAgain: (group: ChangeGroup, round: number) => Promise<LinkedObjects>,
  ): Promise<void> {
    const { refresh, rewrite } = raceRepair(recorded, round);
    await this.refresh(group, refresh);
    if (rewrite.length === 0) return;
    this.logger.info('another writer wrote the same objects meanwhile; writing them again', {
      objectType: group.objectType,
      count: rewrite.length,
      round,
    });
    try {
      const again = await writeAgain(regroup(group, rewrite), round + 1);
      linked.keys.push(...again.keys);
    } catch (error) {
      // The rewrite did not happen (the CRM cannot take it now, most often): the group is parked or
      // retried as it came, which may hold older revisions than the raced objects' newest, so their
      // newest state is asked for too.
      await this.refresh(group, rewrite);
      throw error;
    }
  }

  /** Asks for the newest state of objects another writer raced with. */
  private async refresh(group: ChangeGroup, externalObjectIds: readonly string[]): Promise<void> {
    if (externalObjectIds.length === 0) return;
    this.logger.info('a newer revision was recorded while writing; asking for the newest state again', {
      objectType: group.objectType,
      count: externalObjectIds.length,
    });
    await this.requestRefresh(group, [...externalObjectIds]);
  }
}
