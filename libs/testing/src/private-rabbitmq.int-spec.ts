import { execFileSync } from 'node:child_process';
import net from 'node:net';
import amqplib from 'amqplib';
import { startPrivateRabbitMq } from './private-rabbitmq';
import { waitFor } from './wait-for';

jest.setTimeout(120_000);

/** The command of a process and of its children (the VM starts erl_child_setup, inet_gethost, a disk monitor). */
const processTree = (pid: number) =>
  execFileSync('ps', ['-e', '-o', 'pid=,ppid=,comm='], { encoding: 'utf8' })
    .split('\n')
    .map((line) => line.trim().split(/\s+/))
    .filter(([child, parent]) => Number(child) === pid || Number(parent) === pid)
    .map(([, , command]) => command);

const answers = async (url: string) => {
  try {
    await (await amqplib.connect(url)).close();
    return true;
  } catch {
    return false;
  }
};

/** One message's content, on a connection of its own: a quorum queue that is not up yet closes the connection (541). */
const getOne = async (url: string, queue: string) => {
  const connection = await amqplib.connect(url);
  connection.on('error', () => undefined);
  try {
    const message = await (await connection.createChannel()).get(queue, { noAck: true });
    return message && message.content.toString();
  } finally {
    await connection.close().catch(() => undefined);
  }
};

describe('startPrivateRabbitMq', () => {
  it('when another process holds the distribution port it was given, then the node starts on another and answers', async () => {
    const holder = net.createServer();
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
    const taken = (holder.address() as net.AddressInfo).port;
    try {
      const node = await startPrivateRabbitMq({ distPort: taken });
      try {
        expect(await answers(node.url)).toBe(true);
      } finally {
        await node.stop();
      }
    } finally {
      await new Promise((resolve) => holder.close(resolve));
    }
  });

  it('when the node is killed and restarted, then its VM is gone in between, and it comes back on the same port with its durable messages', async () => {
    const node = await startPrivateRabbitMq();
    try {
      expect(node.url).not.toContain(':5672');
      const pid = node.pid()!;
      expect(processTree(pid)).toEqual(expect.arrayContaining(['beam.smp', 'erl_child_setup']));
      const connection = await amqplib.connect(node.url);
      const channel = await connection.createConfirmChannel();
      await channel.assertQueue('kept', { durable: true, arguments: { 'x-queue-type': 'quorum' } });
      channel.sendToQueue('kept', Buffer.from('hello'), { persistent: true });
      await channel.waitForConfirms();
      connection.on('error', () => undefined); // ECONNRESET when the node dies
      const lost = new Promise((resolve) => connection.once('close', resolve));

      await node.kill();
      await lost;
      expect(node.isRunning()).toBe(false);
      expect(processTree(pid)).toEqual([]);
      expect(await answers(node.url)).toBe(false);

      await node.restart();
      expect(node.isRunning()).toBe(true);
      const kept = await waitFor(() => getOne(node.url, 'kept'), { message: 'the quorum queue to serve its message after the restart' });
      expect(kept).toBe('hello');
      const restarted = node.pid()!;
      await node.stop();
      expect(processTree(restarted)).toEqual([]);
      expect(await answers(node.url)).toBe(false);
    } finally {
      await node.stop();
    }
  });
});
