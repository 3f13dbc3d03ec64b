/**
 * A channel the broker closed while the connection stayed up is replaced after a pause, once
 * however often it is asked meanwhile, and never after its owner stopped (ConsumerChannel,
 * PublisherChannel: amqp-connection-manager replaces channels only on a reconnect).
 */
export class ReopenLater {
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;

  constructor(
    private readonly delayMs: number,
    private readonly reopen: () => void,
  ) {}

  soon(): void {
    if (this.stopped || this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      if (!this.stopped) this.reopen();
    }, this.delayMs);
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
  }
}
