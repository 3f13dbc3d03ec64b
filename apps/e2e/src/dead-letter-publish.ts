import amqplib, { type Options } from 'amqplib';
import { testInfrastructure, type TestStack } from '@ecomm-sync/testing';

/** Puts one message (JSON `body`) into the dead-letter queue of a stack's `queue`, confirmed by the broker, as if it had failed for good. */
export async function publishDeadLetter(stack: TestStack, queue: string, body: string, options: Options.Publish = {}): Promise<void> {
  const connection = await amqplib.connect(testInfrastructure().amqpUrl);
  try {
    const channel = await connection.createConfirmChannel();
    channel.sendToQueue(`${stack.name}.${queue}.dlq`, Buffer.from(body), { persistent: true, contentType: 'application/json', ...options });
    await channel.waitForConfirms();
  } finally {
    await connection.close();
  }
}
