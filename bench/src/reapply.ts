/** The re-apply figure: stored objects mapped again after a mapping change, by the mapper alone. */
import { DEMO_MAPPINGS } from '@ecomm-sync/provisioning';
import { waitFor } from '@ecomm-sync/testing';
import { PATH_COST_ENV, SIZES, log, startStack } from './options';
import { rssMb } from './process-stats';
import { round } from './stats';

export async function benchReapply() {
  const n = SIZES.reapplyObjects;
  log(`re-apply: ${n} stored objects after a mapping change (mapper alone)`);
  const stack = await startStack({ apps: ['crm', 'gateway', 'mapper'], env: { LOG_LEVEL: 'warn', ...PATH_COST_ENV } });
  try {
    const portal = await stack.createPortal();
    await stack.seedStates(portal, 'CONTACT', n, (i) => ({
      externalObjectId: `r-${i}`,
      properties: { email: `r-${i}@example.com`, phone_number: `+1 555 ${i}` },
    }));
    const pid = stack.pid('mapper');
    let peak = rssMb(pid);
    const sampler = setInterval(() => (peak = Math.max(peak, rssMb(pid))), 100);
    const response = await fetch(`${stack.gatewayUrl}/extensions/ecomm/v2/settings?hapikey=${portal.apiKey}`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        enabled: true,
        mappings: {
          DEAL: { properties: DEMO_MAPPINGS.DEAL },
          PRODUCT: { properties: DEMO_MAPPINGS.PRODUCT },
          LINE_ITEM: { properties: DEMO_MAPPINGS.LINE_ITEM },
          CONTACT: { properties: [...DEMO_MAPPINGS.CONTACT, { externalPropertyName: 'phone_number', crmPropertyName: 'mobilephone' }] },
        },
      }),
    });
    if (response.status !== 200) throw new Error(`settings PUT answered ${response.status}`);
    const job = await waitFor(
      async () => {
        const status = (await (await fetch(`${stack.gatewayUrl}/extensions/ecomm/v2/settings/reapply-status?hapikey=${portal.apiKey}`)).json()) as {
          status: string;
          objectsProcessed: number;
          startedAt: number;
          finishedAt: number;
        };
        return status.status === 'completed' ? status : undefined;
      },
      { timeoutMs: 20 * 60_000, intervalMs: 250, message: 'the re-apply to complete' },
    );
    clearInterval(sampler);
    return {
      objects: job.objectsProcessed,
      objectsPerSecond: Math.round(job.objectsProcessed / ((job.finishedAt - job.startedAt) / 1000)),
      peakRssMb: round(peak),
    };
  } finally {
    await stack.stop();
  }
}

export type ReapplyFigure = Awaited<ReturnType<typeof benchReapply>>;

export const reapplyRow = (reapply: ReapplyFigure): string =>
  `| Re-apply, objects/s (${reapply.objects} objects) | ${reapply.objectsPerSecond} (mapper peak RSS ${reapply.peakRssMb} MB) | | | |`;
