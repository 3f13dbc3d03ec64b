/** The CRM budget figure, steps 1 and 2: CRM requests and MongoDB commands per object, each type alone. */
import type { CrmAdminClient } from '@ecomm-sync/crm-client';
import type { TestStack } from '@ecomm-sync/testing';
import { send } from './load';
import { log } from './options';
import { round } from './stats';
import { OBJECT_TYPES, crmQuiet, makers, portalWithLimits, waitApplied, type BenchObjectType, type Observer } from './crm-budget-shared';

/** Step 1 and 2: each type alone, CRM requests and MongoDB commands from before its first send until the CRM is quiet. */
export async function measurePerType(stack: TestStack, admin: CrmAdminClient, db: Observer, perType: number) {
  const portal = await portalWithLimits(stack, admin, 1_000_000, 10_000);
  const url = `${stack.gatewayUrl}/extensions/ecomm/v2/sync/messages?hapikey=${portal.apiKey}`;
  const make = makers({ CONTACT: perType, PRODUCT: perType, DEAL: perType, LINE_ITEM: perType });
  // Background work (sweeps, waits, polls of every app) counted over 5 idle seconds, to leave out below.
  const idleFrom = await db.dbOperations();
  const idleStarted = Date.now();
  await new Promise((resolve) => setTimeout(resolve, 5000));
  const idleRate = idleFrom === null ? null : ((await db.dbOperations())! - idleFrom) / ((Date.now() - idleStarted) / 1000);
  const requestsPer100 = {} as Record<BenchObjectType, number>;
  const dbPer100 = {} as Record<BenchObjectType, number>;
  let dbTotal = 0;
  for (const objectType of OBJECT_TYPES) {
    const requestsBefore = (await admin.usage(portal.portalId)).totals.answered;
    const opsBefore = await db.dbOperations();
    const started = Date.now();
    await send(url, objectType, perType, make[objectType]);
    await waitApplied(db, portal, objectType, perType, 10 * 60_000);
    const requests = (await crmQuiet(admin, portal.portalId)).totals.answered - requestsBefore;
    const opsAfter = await db.dbOperations();
    requestsPer100[objectType] = round((requests / perType) * 100, 2);
    if (opsBefore !== null && idleRate !== null) {
      const ops = opsAfter! - opsBefore - idleRate * ((Date.now() - started) / 1000);
      dbPer100[objectType] = round((ops / perType) * 100);
      dbTotal += ops;
    }
    log(
      `crm-budget: ${perType} ${objectType} alone: ${requests} CRM requests${opsBefore === null ? '' : `, ${dbPer100[objectType]} MongoDB commands per 100`} (${round((Date.now() - started) / 1000)} s)`,
    );
  }
  return {
    requestsPer100,
    dbOperationsPerObject: idleRate === null ? null : round(dbTotal / (perType * OBJECT_TYPES.length), 1),
    dbOperationsPer100: idleRate === null ? null : dbPer100,
    idleDbOperationsPerSecond: idleRate === null ? null : round(idleRate),
  };
}
