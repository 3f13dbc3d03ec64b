import amqplib from 'amqplib';
import { testInfrastructure, type TestStack } from '@ecomm-sync/testing';

/** The queues whose dead letters hold accepted work: the mapper's sync batches and the applier's mapped changes. */
export const WORK_QUEUES = ['mapper.sync-batches', 'applier.mapped-changes'];

/** How many messages sit in the dead-letter queues of a stack's queues (its AMQP prefix is its name). */
export async function deadLetterCount(stack: TestStack, queues: readonly string[] = WORK_QUEUES): Promise<number> {
  const connection = await amqplib.connect(testInfrastructure().amqpUrl);
  try {
    const channel = await connection.createChannel();
    let count = 0;
    for (const queue of queues) count += (await channel.checkQueue(`${stack.name}.${queue}.dlq`)).messageCount;
    return count;
  } finally {
    await connection.close();
  }
}
