import client from 'prom-client';
import { metricsEnabled } from '@ecomm-sync/runtime';

/**
 * The import release backlog (decision 57): completions are acked at once, so releases waiting for
 * room are not in the queue KEDA reads. Each periodic check reads the backlog from the database;
 * only this app exports it (every replica the same figures: take the max).
 */
const portalsWaiting = new client.Gauge({
  name: 'ecomm_import_release_portals_waiting',
  help: 'Portals with a complete import whose release nobody holds (waiting for room, or dropped after a failure), at the last check',
});
const oldestWait = new client.Gauge({
  name: 'ecomm_import_release_oldest_wait_seconds',
  help: 'How long the oldest complete import whose release nobody holds has waited since it completed, at the last check (0: none)',
});
const running = new client.Gauge({
  name: 'ecomm_import_releases_running',
  help: 'Import releases this replica runs (at most IMPORT_RELEASES_AT_ONCE)',
});

export function observeReleaseBacklog(backlog: { portalsWaiting: number; oldestWaitMs: number; running: number }): void {
  if (!metricsEnabled()) return;
  portalsWaiting.set(backlog.portalsWaiting);
  oldestWait.set(backlog.oldestWaitMs / 1000);
  running.set(backlog.running);
}
