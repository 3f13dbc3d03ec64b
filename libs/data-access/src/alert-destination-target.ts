import { shownDestination } from '@ecomm-sync/domain';
import type { AlertDestination } from './repositories/alert-destination.repository';
import { isSealed, sealedFor, type SecretBox } from './secrets';

/**
 * A destination's target as it is stored (decision 0053, addendum of 2026-12-08): an e-mail address
 * as it is; a URL sealed, bound to its destination, since a Slack incoming webhook's URL is its
 * credential and any URL may carry a token; beside it how it reads, so that listing a tenant's
 * destinations opens nothing.
 */
export function storedDestinationTarget(
  box: SecretBox,
  destinationId: string,
  kind: AlertDestination['kind'],
  target: string,
): { target: string; shownTarget: string } {
  const shownTarget = shownDestination(kind, target);
  return kind === 'email' ? { target, shownTarget } : { target: box.seal(target, sealedFor.alertDestinationUrl(destinationId)), shownTarget };
}

/** The URL to send to (or the e-mail address): a sealed URL opened; one stored whole before URLs were sealed as it is. Throws when it cannot be opened. */
export function destinationUrl(box: SecretBox, destination: Pick<AlertDestination, 'id' | 'kind' | 'target'>): string {
  if (destination.kind === 'email' || !isSealed(destination.target)) return destination.target;
  return box.open(destination.target, sealedFor.alertDestinationUrl(destination.id));
}

/** How a destination reads to everyone who reads the tenant's alerts (one stored before URLs were sealed is shown from its whole URL). */
export const destinationShown = (destination: Pick<AlertDestination, 'kind' | 'target' | 'shownTarget'>): string =>
  destination.shownTarget ?? (isSealed(destination.target) ? '…' : shownDestination(destination.kind, destination.target));
