import type { PrivateRabbitMq } from '@ecomm-sync/testing';
import { resultTable } from './chaos/chaos-check';
import { runChaosScenario, startChaosBroker } from './chaos/chaos-scenario';
import { FAULTS, type ChaosResult } from './chaos/chaos-types';

/**
 * The short version of `npm run chaos` (docs/reliability.md): each part of the running service
 * SIGKILLed mid-stream and restarted, with updates racing the kill; every acknowledged object is
 * then checked in the CRM. The stacks use a RabbitMQ node of their own, never the shared one.
 */
describe('chaos (short): every part killed mid-stream and restarted, nothing acknowledged is lost, duplicated or left stale', () => {
  let rabbit: PrivateRabbitMq;
  const results: ChaosResult[] = [];

  beforeAll(async () => {
    rabbit = await startChaosBroker();
  });

  afterAll(async () => {
    if (results.length > 0) console.log(`chaos (short)\n${resultTable(results)}`);
    await rabbit?.stop();
  });

  it.each(FAULTS)(
    'when the %s is SIGKILLed and restarted mid-stream, then every acknowledged object is in the CRM once with its newest values',
    async (fault) => {
      const result = await runChaosScenario(fault, rabbit, { objects: 600, batchSize: 10, requestsPerSecond: 40, downMs: 1500 });
      results.push(result);
      // Nothing lost, nothing twice, newest values, nothing dead-lettered, no 500: asserted.
      expect(result).toMatchObject({ acknowledged: 600, lost: 0, duplicated: 0, wrongValue: 0, deadLettered: 0 });
      expect(result.answers['500']).toBeUndefined();
      // Every deal is associated with its contact, whichever part was killed (issue 16, decision 18).
      expect(result).toMatchObject({ unassociated: 0, applied: 600 });
    },
  );
});
