import { metricsText, startMetrics } from '@ecomm-sync/runtime';
import { observeReleaseBacklog } from './release-metrics';

const gauge = (text: string, name: string): number | null => {
  const line = text.split('\n').find((candidate) => candidate.startsWith(`${name} `));
  return line === undefined ? null : Number(line.slice(name.length + 1));
};

describe('the import release backlog as metrics', () => {
  afterEach(() => startMetrics({ enabled: true }));

  it('when a check reads the backlog, then the three gauges show it, the wait in seconds', async () => {
    startMetrics({ enabled: true });
    observeReleaseBacklog({ portalsWaiting: 7, oldestWaitMs: 90_500, running: 2 });
    const { body } = await metricsText();
    expect(gauge(body, 'ecomm_import_release_portals_waiting')).toBe(7);
    expect(gauge(body, 'ecomm_import_release_oldest_wait_seconds')).toBe(90.5);
    expect(gauge(body, 'ecomm_import_releases_running')).toBe(2);
  });

  it('when metrics are off (METRICS_ENABLED=false), then a check changes none of them', async () => {
    startMetrics({ enabled: true });
    observeReleaseBacklog({ portalsWaiting: 1, oldestWaitMs: 1_000, running: 1 });
    startMetrics({ enabled: false });
    observeReleaseBacklog({ portalsWaiting: 9, oldestWaitMs: 9_000, running: 3 });
    const { body } = await metricsText();
    expect([
      gauge(body, 'ecomm_import_release_portals_waiting'),
      gauge(body, 'ecomm_import_release_oldest_wait_seconds'),
      gauge(body, 'ecomm_import_releases_running'),
    ]).toEqual([1, 1, 1]);
  });
});
