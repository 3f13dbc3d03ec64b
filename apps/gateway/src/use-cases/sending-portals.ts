/** How recent a portal's last batch must be for the portal to count as sending. */
export const SENDING_WINDOW_MS = 5_000;

/**
 * Which portals sent a sync batch to this gateway replica within the last few seconds, for the
 * intake pace's shared rate (intakeRateNow in libs/domain). In memory, as the lane shares are: with
 * several replicas each one sees the portals whose batches it takes, so a flood and a trickle spread
 * over different replicas may not see each other on all of them (decision 57, addendum of 2026-12-01).
 */
export class SendingPortals {
  /** Each portal's latest batch (clock time), oldest first: a portal is moved to the end when it sends again. */
  private readonly lastSent = new Map<number, number>();

  constructor(
    private readonly windowMs = SENDING_WINDOW_MS,
    // Monotonic: a step of the wall clock must not make every portal look idle, or all busy.
    private readonly clock: () => number = () => performance.now(),
  ) {}

  /** Notes a batch of `portalId`'s; whether another portal sent one within the window. */
  sent(portalId: number): boolean {
    const now = this.clock();
    this.lastSent.delete(portalId);
    this.lastSent.set(portalId, now);
    // Oldest first: the portals that went quiet are dropped until the first one that did not; that
    // one is another portal unless it is this one, which is the newest (so the only one left).
    for (const [id, at] of this.lastSent) {
      if (now - at <= this.windowMs) return id !== portalId;
      this.lastSent.delete(id);
    }
    return false;
  }
}
