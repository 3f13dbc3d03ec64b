import amqp, { type AmqpConnectionManager } from 'amqp-connection-manager';
import type { BrokerOptions } from './broker-types';

/** How long a lost connection waits before it connects again (and a channel the broker closed before it opens anew). */
export const RECONNECT_SECONDS = 1;

export const redact = (url: string) => url.replace(/\/\/[^@/]*@/, '//***@');

/** A connection that reconnects for ever, its events logged with its role (consuming or publishing). */
export function managedConnection({ url, logger }: BrokerOptions, role: 'consuming' | 'publishing'): AmqpConnectionManager {
  // noDelay: small frames (publishes, confirms, acks) would otherwise wait ~40 ms for Nagle and delayed ACKs.
  const connection = amqp.connect([url], {
    heartbeatIntervalInSeconds: 10,
    reconnectTimeInSeconds: RECONNECT_SECONDS,
    connectionOptions: { noDelay: true, clientProperties: { connection_name: role } },
  });
  connection.on('connect', () => logger.info('broker connected', { url: redact(url), role }));
  connection.on('disconnect', ({ err }) => logger.warn('broker disconnected', { error: err?.message, role }));
  connection.on('connectFailed', ({ err }) => logger.warn('broker connection failed', { error: err?.message, role }));
  connection.on('blocked', ({ reason }) => logger.warn('broker blocked publishing', { reason, role }));
  connection.on('unblocked', () => logger.info('broker unblocked publishing', { role }));
  connection.on('error', (error: Error) => logger.error('broker connection error', { error: error.message, role }));
  return connection;
}

/** Whether RabbitMQ blocks a connection's publishes now (connection.blocked, until unblocked or a new connection). */
export class BlockedGate {
  private free: Promise<void> | null = null;
  private unblock: () => void = () => undefined;

  constructor(connection: AmqpConnectionManager) {
    connection.on('blocked', () => {
      this.free ??= new Promise<void>((resolve) => (this.unblock = resolve));
    });
    const open = () => {
      this.free = null;
      this.unblock();
    };
    connection.on('unblocked', open);
    connection.on('disconnect', open);
  }

  /** Resolves at once while not blocked, else when RabbitMQ unblocks (or the connection is replaced). */
  whenFree(): Promise<void> {
    return this.free ?? Promise.resolve();
  }
}
