/**
 * A refresh token presented again after it was spent (decision 12, addendum of 2026-12-05). The
 * answer to a refresh can be lost on its way back (a dropped connection, a client that timed out):
 * the client then holds only the token it just spent. Within a short grace after the spend, and
 * only while the pair that spend bought shows no sign of having reached anyone (neither of its
 * tokens used), the presented token buys a new pair and the lost one is revoked.
 */
export interface SpentRefreshToken {
  /** Epoch ms the token was spent. */
  spentAt: number;
  /**
   * The pair the spend bought: unused; used (its refresh token spent, or its access token used to
   * call the API: it reached its client); or gone (its refresh token revoked).
   */
  successor: 'unused' | 'used' | 'gone';
}

/** `reissue`: a new pair in place of the lost one; otherwise why the token is refused. */
export type RefreshReuse = 'reissue' | 'past-grace' | 'successor-used' | 'successor-gone';

export function refreshReuse({ spentAt, successor }: SpentRefreshToken, now: number, graceMs: number): RefreshReuse {
  // Off (0) means off, even within the millisecond of the spend or behind the clock of the replica that spent it.
  if (graceMs <= 0 || now - spentAt > graceMs) return 'past-grace';
  // The client received the pair (it refreshed with it): this is a replay, not a lost answer.
  if (successor === 'used') return 'successor-used';
  // The pair was revoked (uninstall, an operator): nothing to replace.
  if (successor === 'gone') return 'successor-gone';
  return 'reissue';
}
