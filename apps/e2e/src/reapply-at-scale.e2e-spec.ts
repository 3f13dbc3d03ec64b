import fs from 'node:fs';
import path from 'node:path';
import amqplib from 'amqplib';
import type { MappedChangesMessage } from '@ecomm-sync/contracts';
import { namesOf } from '@ecomm-sync/messaging';
import { DEMO_MAPPINGS } from '@ecomm-sync/provisioning';
import { TestStack, testInfrastructure, waitFor, type TestPortal } from '@ecomm-sync/testing';
import { gatewayClient } from './gateway-client';

const OBJECTS = 50_000;

/** Resident memory of a process in MB, from /proc (Linux). */
const rssMb = (pid: number): number => {
  const match = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match ? Number(match[1]) / 1024 : NaN;
};

/**
 * Re-apply at scale. The applier is not started: the mapped changes stay in its queue, where the
 * test counts them, so the figures are the mapper's alone.
 */
describe(`re-applying ${OBJECTS.toLocaleString('en')} stored objects after a mapping change`, () => {
  let stack: TestStack;
  let portal: TestPortal;
  let client: ReturnType<typeof gatewayClient>;

  beforeAll(async () => {
    stack = await TestStack.start({ apps: ['crm', 'gateway', 'mapper'], env: { LOG_LEVEL: 'warn' } });
    portal = await stack.createPortal();
    client = gatewayClient(stack, portal);
    await stack.seedStates(portal, 'CONTACT', OBJECTS, (n) => ({
      externalObjectId: `bulk-${n}`,
      properties: { email: `bulk-${n}@example.com`, phone_number: `+1 555 ${n}` },
    }));
  });

  afterAll(async () => {
    await stack?.stop();
  });

  const putContactMappings = async (extra: object[]) => {
    const response = await client.http.put('/v2/settings', {
      enabled: true,
      mappings: {
        DEAL: { properties: DEMO_MAPPINGS.DEAL },
        PRODUCT: { properties: DEMO_MAPPINGS.PRODUCT },
        LINE_ITEM: { properties: DEMO_MAPPINGS.LINE_ITEM },
        CONTACT: { properties: [{ externalPropertyName: 'email', crmPropertyName: 'email' }, ...extra] },
      },
    });
    expect(response.status).toBe(200);
    return response.data;
  };
  const reapplyStatus = async () => (await client.http.get('/v2/settings/reapply-status')).data;
  /** Settings revision of the newest re-apply job so far (0 before any). */
  const lastJobRev = async (): Promise<number> => (await reapplyStatus()).settingsRev ?? 0;

  /** Takes every message waiting for the applier (re-applies go on the bulk lane); answers the external ids they carry. */
  async function drainMappedChanges(): Promise<string[]> {
    const connection = await amqplib.connect(testInfrastructure().amqpUrl);
    try {
      const channel = await connection.createChannel();
      const { main, bulk } = namesOf(stack.name, 'applier.mapped-changes');
      const ids: string[] = [];
      for (const queue of [main, bulk!]) {
        for (let message = await channel.get(queue, { noAck: true }); message; message = await channel.get(queue, { noAck: true })) {
          const body = JSON.parse(message.content.toString()) as MappedChangesMessage;
          for (const change of body.changes) ids.push(change.externalObjectId);
        }
      }
      return ids;
    } finally {
      await connection.close();
    }
  }

  it('completes with the mapper memory staying flat, publishing every object once', async () => {
    await drainMappedChanges();
    const pid = stack.pid('mapper');
    const baseline = rssMb(pid);
    let peak = baseline;
    const sampler = setInterval(() => (peak = Math.max(peak, rssMb(pid))), 50);
    try {
      const before = await lastJobRev();
      await putContactMappings([{ externalPropertyName: 'phone_number', crmPropertyName: 'mobilephone' }]);
      await waitFor(
        async () => {
          const status = await reapplyStatus();
          return status.settingsRev > before && status.status === 'completed';
        },
        { timeoutMs: 240_000, intervalMs: 200, message: 'the re-apply to complete' },
      );
    } finally {
      clearInterval(sampler);
    }
    const status = await reapplyStatus();
    expect(status).toMatchObject({ status: 'completed', objectTypes: ['CONTACT'], objectsProcessed: OBJECTS });
    const ids = await drainMappedChanges();
    expect(ids).toHaveLength(OBJECTS);
    expect(new Set(ids).size).toBe(OBJECTS);

    const report = {
      objects: OBJECTS,
      baselineRssMb: Math.round(baseline),
      peakRssMb: Math.round(peak),
      growthMb: Math.round(peak - baseline),
      durationMs: status.finishedAt - status.startedAt,
    };
    fs.mkdirSync(path.join(__dirname, '..', '..', '..', 'reports'), { recursive: true });
    fs.writeFileSync(path.join(__dirname, '..', '..', '..', 'reports', 'reapply-memory.json'), JSON.stringify(report, null, 2));
    console.log(`re-apply of ${OBJECTS} objects: ${JSON.stringify(report)}`);
    // Pages of 500 bound the work in memory; holding 50,000 states at once would take several hundred MB.
    // The bound is on what does not scale: on 2026-11-27 the growth read 119–126 MB for 50,000 objects
    // and 124 MB for 100,000 (flat), up from about 80 MB at 4c11dbd by a constant offset that came with
    // the larger bundle (docs/benchmarks.md); a working set that grew with the objects would pass 150.
    expect(peak - baseline).toBeLessThan(150);
  });

  it('when the mapper is killed during a re-apply, then the restarted mapper resumes the job and finishes it', async () => {
    await drainMappedChanges();
    const before = await lastJobRev();
    await putContactMappings([{ externalPropertyName: 'phone_number', crmPropertyName: 'phone' }]);
    const midway = await waitFor(
      async () => {
        const status = await reapplyStatus();
        return status.settingsRev > before && status.objectsProcessed > 0 ? status : undefined;
      },
      { timeoutMs: 60_000, intervalMs: 20, message: 'the re-apply to be under way' },
    );
    await stack.stopApp('mapper', 'SIGKILL');
    const atKill = await reapplyStatus();
    expect(atKill.status).toBe('running');
    expect(atKill.objectsProcessed).toBeGreaterThanOrEqual(midway.objectsProcessed);
    expect(atKill.objectsProcessed).toBeLessThan(OBJECTS);

    await stack.startApp('mapper');
    await waitFor(async () => (await reapplyStatus()).status === 'completed', {
      timeoutMs: 240_000,
      intervalMs: 200,
      message: 'the resumed re-apply to complete',
    });
    expect(await reapplyStatus()).toMatchObject({ settingsRev: midway.settingsRev, objectsProcessed: OBJECTS });
    const ids = await drainMappedChanges();
    expect(new Set(ids).size).toBe(OBJECTS); // a page cut short by the crash may be published twice; the applier skips repeats
  });
});
