import { onlyDuplicateKeyErrors } from '@ecomm-sync/data-access';
import type { mongo } from 'mongoose';

/** Object ids are handed out in blocks of this many per CRM process (see crm_id_blocks). */
const ID_BLOCK_SIZE = 1000;

/** Ids of new objects, unique across portals, types and CRM processes. */
export class ObjectIdAllocator {
  /** The ids `next`..`last` of block `number` are this process's to hand out. */
  private idBlock: { number?: number; next: number; last: number } = { next: 1, last: 0 };
  private reservingIdBlock?: Promise<void>;

  constructor(private readonly idBlocks: mongo.Collection<{ _id: number }>) {}

  /** Ids of new objects: from this process's block of ids, taking the next free block when it runs out. */
  async allocate(count: number): Promise<number[]> {
    const ids: number[] = [];
    while (ids.length < count) {
      if (this.idBlock.next > this.idBlock.last) await this.reserveIdBlock();
      else ids.push(this.idBlock.next++);
    }
    return ids;
  }

  /** One reservation at a time per process; callers waiting on it share it. */
  private reserveIdBlock(): Promise<void> {
    this.reservingIdBlock ??= this.takeNextIdBlock().finally(() => (this.reservingIdBlock = undefined));
    return this.reservingIdBlock;
  }

  private async takeNextIdBlock(): Promise<void> {
    const highest = async () => (await this.idBlocks.find().sort({ _id: -1 }).limit(1).toArray())[0]?._id ?? -1;
    let block = (this.idBlock.number ?? (await highest())) + 1;
    for (;;) {
      try {
        await this.idBlocks.insertOne({ _id: block });
        break;
      } catch (error) {
        if (!onlyDuplicateKeyErrors(error)) throw error;
        block = Math.max(block, await highest()) + 1; // another process took it
      }
    }
    this.idBlock = { number: block, next: block * ID_BLOCK_SIZE + 1, last: (block + 1) * ID_BLOCK_SIZE };
  }
}
