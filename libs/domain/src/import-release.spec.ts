import type { ImportState } from './import-machine';
import { releaseStalled, STALLED_RELEASE_MS } from './import-release';

const T = 1_700_000_000_000;

describe('releaseStalled', () => {
  it.each<[string, ImportState['releaseProblem'], boolean]>([
    ['no problem', null, false],
    ['one failure', { reason: 'x', at: T, tries: 1, since: T }, false],
    ['many tries within a short broker outage (replicas retry at once)', { reason: 'x', at: T + 30_000, tries: 6, since: T }, false],
    ['failures in a row for the stall time', { reason: 'x', at: T + STALLED_RELEASE_MS, tries: 11, since: T }, true],
  ])('when the release problem is %s, then the import counts as failed: as the table says', (_case, problem, stalled) => {
    expect(releaseStalled(problem)).toBe(stalled);
  });
});
