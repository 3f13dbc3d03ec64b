/** What the CRM budget figure's steps share: the load's object types and makers, the bench's own database observer, and portals with CRM limits. */
import axios from 'axios';
import mongoose from 'mongoose';
import type { CrmAdminClient, CrmAccountUsage } from '@ecomm-sync/crm-client';
import { sendingDueAfter } from '@ecomm-sync/domain';
import { testInfrastructure, type TestPortal, type TestStack } from '@ecomm-sync/testing';
import { syncWatch } from './sync-watch';
import type { MakeObject } from './load';

export const OBJECT_TYPES = ['CONTACT', 'PRODUCT', 'DEAL', 'LINE_ITEM'] as const;
export type BenchObjectType = (typeof OBJECT_TYPES)[number];
/** The hosted CRM's professional tier: 190 requests per rolling 10 s, 4 searches a second. */
export const BURST_PER_10S = 190;
export const SEARCH_PER_SECOND = 4;
/** The mixed load's shares, as in the end-to-end figure. */
export const MIX: Record<BenchObjectType, number> = { CONTACT: 0.4, PRODUCT: 0.1, DEAL: 0.3, LINE_ITEM: 0.2 };
/**
 * The seconds the steady ratio leaves out at the start, a window of our budget rounded up to whole
 * seconds: a slot's grants count for 10 s, the slot and the margin after it (10.4 s for the built-in
 * CRM this figure runs against, 10.9 s for a hosted one; decision 20, addendum of 2026-11-27).
 */
export const BUDGET_WINDOW_MS = 11_000;

export function makers(counts: Record<BenchObjectType, number>): Record<BenchObjectType, MakeObject> {
  return {
    CONTACT: (i) => ({ properties: { email: `budget-${i}@example.com`, firstname: `First ${i}`, lastname: 'Budget' } }),
    PRODUCT: (i) => ({ properties: { name: `Product ${i}`, price: (i % 100) + 0.5 } }),
    DEAL: (i) => ({
      properties: { dealname: `Order ${i}`, dealstage: 'checkout_completed', amount: i % 500 },
      associations: { CONTACT: [`contact-${i % counts.CONTACT}`] },
    }),
    LINE_ITEM: (i) => ({
      properties: { quantity: (i % 5) + 1, price: 9.5 },
      associations: { DEAL: [`deal-${i % counts.DEAL}`], PRODUCT: [`product-${i % counts.PRODUCT}`] },
    }),
  };
}

/** The bench's own connection: reads object_syncs and the server's counters, and counts its own commands to leave them out. */
export async function observer(stack: TestStack) {
  const connection = await mongoose.createConnection(testInfrastructure().mongoUrl, { monitorCommands: true }).asPromise();
  let own = 0;
  connection.getClient().on('commandStarted', () => own++);
  const syncDb = connection.useDb(`${stack.name}_sync`);
  // Statuses are keyed by the natural key as one string (decision 15).
  const syncs = syncDb.collection<{ _id: string; externalObjectId?: string; lastProcessedAt?: number }>('object_syncs');
  return {
    syncs,
    parked: syncDb.collection('parked_changes'),
    /** Each portal's shared intake pace (decision 57): `due` on the database server's clock, this machine's. */
    paces: syncDb.collection<{ _id: number; due: number }>('intake_paces'),
    budgets: syncDb.collection<{ _id: string; grants?: { at: number; n: number }[]; searchGrants?: { at: number; n: number }[] }>('crm_budgets'),
    /** MongoDB commands the server ran so far (serverStatus opcounters), less the bench's own; null when it does not count them. */
    async dbOperations(): Promise<number | null> {
      const status = await connection.db!.admin().command({ serverStatus: 1 });
      const counters = status.opcounters as Record<string, number> | undefined;
      return counters ? Object.values(counters).reduce((sum, n) => sum + Number(n), 0) - own : null;
    },
    close: () => connection.close(),
  };
}
export type Observer = Awaited<ReturnType<typeof observer>>;

/** Waits until every one of `total` objects of a type has its CRM id (sync-watch.ts: without scanning statuses at each poll). */
export async function waitApplied(db: Observer, portal: TestPortal, objectType: BenchObjectType, total: number, timeoutMs: number) {
  await syncWatch(db.syncs, portal, { intervalMs: 250, timeoutMs }).applied(objectType, total);
}

/** Waits until objects 0…count-1 of a type are applied (those a later type refers to: see `makers`). */
export async function waitAppliedFirst(db: Observer, portal: TestPortal, objectType: BenchObjectType, count: number, timeoutMs: number) {
  await syncWatch(db.syncs, portal, { intervalMs: 250, timeoutMs }).appliedFirst(objectType, count);
}

/** Longest intakeQuiet waits: the sending window after the longest a held batch may wait for its pace, with room to spare. */
const INTAKE_QUIET_TIMEOUT_MS = 60_000;

/**
 * Waits until no portal counts as sending (no pace's `due` within the sending window: libs/domain's
 * rule), so that a step's portal is not taken in at the shared rate (decision 57) because the step
 * before it sent a few seconds ago. Until 2026-12-02 the mixed load's first 3–7 s were taken in at
 * the shared 1,000 objects a second for that reason, and used about 10 CRM requests a second of the
 * 19 allowed. This figure measures one portal's use of its CRM budget; the fairness figure measures
 * the policy between portals. `due` is on the database server's clock, and the bench starts that
 * server on this machine (tools/scripts/bench.mjs), so Date.now() is the same clock.
 */
export async function intakeQuiet(db: Observer): Promise<void> {
  const deadline = Date.now() + INTAKE_QUIET_TIMEOUT_MS;
  for (;;) {
    const sending = await db.paces.find({ due: { $gt: sendingDueAfter(Date.now()) } }).toArray();
    if (sending.length === 0) return;
    if (Date.now() > deadline) {
      const ahead = sending.map((pace) => `portal ${pace._id} ${Math.round((pace.due - Date.now()) / 1000)} s`).join(', ');
      throw new Error(`portals still count as sending after ${INTAKE_QUIET_TIMEOUT_MS / 1000} s (their paces' due ahead of now: ${ahead})`);
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** Waits until the CRM's count of the account's requests has not moved for a second (associations may follow the status). */
export async function crmQuiet(admin: CrmAdminClient, portalId: number): Promise<CrmAccountUsage> {
  let last = await admin.usage(portalId);
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const now = await admin.usage(portalId);
    if (now.totals.answered === last.totals.answered) return now;
    last = now;
  }
}

export async function portalWithLimits(stack: TestStack, admin: CrmAdminClient, burstPer10s: number, searchPerSecond: number): Promise<TestPortal> {
  const portal = await stack.createPortal();
  // The CRM counts an account's requests only while it has limits (decision 21).
  await admin.setLimits(portal.portalId, { burstPer10s, dailyCap: 1_000_000_000, timeZone: 'UTC', searchPerSecond });
  return portal;
}

/** A portal whose CRM account and connection both allow 190 requests per 10 s and 4 searches a second, so our budget governs. */
export async function portalLimitedLikeHosted(stack: TestStack, admin: CrmAdminClient): Promise<TestPortal> {
  const portal = await portalWithLimits(stack, admin, BURST_PER_10S, SEARCH_PER_SECOND);
  await axios.put(
    `${stack.gatewayUrl}/admin/v1/portals/${portal.portalId}/crm-connection`,
    { kind: 'builtin', limits: { burstPer10s: BURST_PER_10S, dailyCap: null, timeZone: 'UTC', searchPerSecond: SEARCH_PER_SECOND } },
    { headers: { authorization: `Bearer ${stack.adminToken}` } },
  );
  return portal;
}
