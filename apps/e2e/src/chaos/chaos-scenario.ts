import fs from 'node:fs';
import path from 'node:path';
import mongoose from 'mongoose';
import { type AppName, type PrivateRabbitMq, startMongoServer, startPrivateRabbitMq, TestStack, waitFor, workspaceRoot } from '@ecomm-sync/testing';
import { checkCrm, deadLetterCount, writeDiagnosis } from './chaos-check';
import { buildRequests, expectedObjects, sendPaced } from './chaos-traffic';
import type { ChaosOptions, ChaosResult, Fault } from './chaos-types';

/**
 * One scenario: a stack of its own (its own MongoDB-wire server on H2, and the given broker node),
 * a stream of creates and racing updates at a fixed rate, the fault injected a third of the way
 * in (SIGKILL, then a restart after `downMs`), and then every object checked in the CRM.
 * Requests that are not acknowledged are sent again, as an integrator would; only acknowledged
 * messages are owed.
 */
export async function runChaosScenario(fault: Fault, rabbit: PrivateRabbitMq, options: ChaosOptions): Promise<ChaosResult> {
  const started = Date.now();
  const log = options.log ?? (() => undefined);
  fs.mkdirSync(path.join(workspaceRoot, 'tmp'), { recursive: true });
  const dataDir = fs.mkdtempSync(path.join(workspaceRoot, 'tmp', `chaos-${fault}-`));
  const h2File = path.join(dataDir, 'db.mv');
  const mongoLog = path.join(dataDir, 'mongo-server.log');
  let mongo = await startMongoServer({ h2File, logFile: mongoLog });
  const stack = await TestStack.start({
    infrastructure: { mongoUrl: mongo.url, amqpUrl: rabbit.url },
    env: {
      // A fault lasts seconds, but the database server on H2 can take most of a minute to come
      // back on a loaded machine: retries must outlast it (DESIGN.md: bounded retries with delay).
      // A database that is away still counts toward the attempts (see docs/reliability.md).
      AMQP_RETRY_DELAY_MS: '1000',
      AMQP_MAX_ATTEMPTS: '60',
      // Info: repairs (refreshes, rewrites) are logged there, to explain a result.
      LOG_LEVEL: 'info',
    },
  });
  let crmDb: mongoose.Connection | undefined;
  try {
    const portal = await stack.createPortal();
    const half = Math.floor(options.objects / 2);
    const requests = buildRequests(half, options.batchSize);
    const answers: Record<string, number> = {};
    const count = (status: number) => (answers[String(status)] = (answers[String(status)] ?? 0) + 1);

    const faultAt = Math.floor(requests.length / 3);
    let faultDone: Promise<void> = Promise.resolve();
    const inject = async () => {
      log(`[chaos] ${fault}: SIGKILL`);
      if (fault === 'mongodb') {
        process.kill(mongo.pid, 'SIGKILL');
        await waitFor(() => !isAlive(mongo.pid), { timeoutMs: 10_000, message: 'the database server to die' });
      } else if (fault === 'rabbitmq') await rabbit.kill();
      else await stack.stopApp(fault as AppName, 'SIGKILL');
      await new Promise((resolve) => setTimeout(resolve, options.downMs)); // the outage itself, not a wait for an outcome
      log(`[chaos] ${fault}: restart`);
      if (fault === 'mongodb') mongo = await startMongoServer({ port: mongo.port, h2File, logFile: mongoLog });
      else if (fault === 'rabbitmq') await rabbit.restart();
      else await stack.startApp(fault as AppName);
    };

    await sendPaced(stack, portal, requests, options.requestsPerSecond, count, (index) => {
      if (index === faultAt) faultDone = inject();
    });
    await faultDone;
    log(`[chaos] ${fault}: ${requests.length} requests acknowledged; waiting for every object to be applied`);

    crmDb = await mongoose.createConnection(mongo.url, { dbName: `${stack.name}_crm` }).asPromise();
    const tenant = { portalId: portal.portalId, appId: null };
    const expected = expectedObjects(half, tenant);
    const check = () => checkCrm(crmDb!, portal.portalId, expected);
    // Done when every object is right, or when nothing changes for a while (then the check reports what is missing).
    let last = '';
    let stableSince = Date.now();
    const outcome = await waitFor(
      async () => {
        const result = await check();
        if (result.applied === expected.length) return result;
        const signature = JSON.stringify([result.applied, result.lost, result.wrongValue, result.unassociated]);
        if (signature !== last) {
          last = signature;
          stableSince = Date.now();
        }
        return Date.now() - stableSince > 60_000 ? result : undefined;
      },
      { timeoutMs: 15 * 60_000, intervalMs: 1000, message: `the objects of the ${fault} scenario to be applied` },
    );
    const deadLettered = await deadLetterCount(rabbit.url, stack.name);
    if (outcome.applied !== expected.length) {
      const file = path.join(workspaceRoot, 'tmp', `chaos-${fault}-diagnosis.json`);
      await writeDiagnosis(stack, crmDb, portal.portalId, file, outcome.examples);
      log(`[chaos] ${fault}: what the service recorded about the first wrong objects is in ${path.relative(workspaceRoot, file)}`);
    }
    return {
      fault,
      acknowledged: expected.length,
      ...outcome,
      deadLettered,
      answers,
      seconds: Math.round((Date.now() - started) / 1000),
    };
  } finally {
    await crmDb?.close().catch(() => undefined);
    await stack.stop().catch((error) => log(`[chaos] stopping the stack failed: ${String(error)}`));
    await mongo.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/** Starts the broker node that every scenario uses (and the rabbitmq scenario kills). */
export const startChaosBroker = () => startPrivateRabbitMq();

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
