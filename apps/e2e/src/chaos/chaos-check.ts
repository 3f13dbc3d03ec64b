import fs from 'node:fs';
import mongoose from 'mongoose';
import { stageMapOf, syncKeyOf, SYNC_KEY_PROPERTY, type PipelineView } from '@ecomm-sync/domain';
import type { TestStack } from '@ecomm-sync/testing';
import type { ExpectedObject } from './chaos-traffic';
import type { ChaosResult } from './chaos-types';

// How a chaos scenario is judged: every owed object read back from the CRM's own database.

/**
 * Every expected object in the CRM's own database: present once, newest values, deals with their
 * contact. A deal's stage is held there as the id the CRM gave SPEC's stage (decision 43).
 */
export async function checkCrm(crmDb: mongoose.Connection, portalId: number, expected: ExpectedObject[]) {
  const stages = stageMapOf(await crmDb.collection<PipelineView>('crm_pipelines').find({ portalId }).toArray());
  const inCrm = (name: string, value: string) => (name === 'dealstage' ? (stages?.toCrm.get(value) ?? value) : value);
  const docs = await crmDb
    .collection('crm_objects')
    .find({ portalId, archived: { $ne: true }, objectType: { $in: ['contacts', 'deals'] } }, { projection: { _id: 1, objectType: 1, properties: 1 } })
    .toArray();
  // A deal's contacts, kept beside the objects (decision 56).
  const dealKeys = docs.filter((doc) => doc.objectType === 'deals').map((doc) => `${doc._id}:contacts`);
  const links = await crmDb
    .collection('crm_object_associations')
    .find({ _id: { $in: dealKeys } } as object)
    .toArray();
  const contactsOf = new Map(links.map((doc) => [String(doc._id), ((doc.ids ?? []) as number[]).map(Number)]));
  const bySyncKey = new Map<string, typeof docs>();
  for (const doc of docs) {
    const key = (doc.properties as Record<string, string>)?.[SYNC_KEY_PROPERTY];
    if (!key) continue;
    bySyncKey.set(key, [...(bySyncKey.get(key) ?? []), doc]);
  }
  const contactIds = new Map<number, number>();
  for (const object of expected) {
    const found = bySyncKey.get(object.syncKey);
    if (object.kind === 'contacts' && found?.length === 1) contactIds.set(object.n, Number(found[0]._id));
  }
  let applied = 0;
  let lost = 0;
  let duplicated = 0;
  let wrongValue = 0;
  let unassociated = 0;
  const examples: string[] = [];
  for (const object of expected) {
    const found = bySyncKey.get(object.syncKey) ?? [];
    if (found.length === 0) {
      lost++;
      if (examples.length < 5) examples.push(`${object.kind} ${object.n}: not in the CRM`);
      continue;
    }
    if (found.length > 1) {
      duplicated++;
      if (examples.length < 5) examples.push(`${object.kind} ${object.n}: ${found.length} times in the CRM`);
      continue;
    }
    const properties = found[0].properties as Record<string, string>;
    const wrong = Object.entries(object.properties).filter(([name, value]) => properties[name] !== inCrm(name, value));
    const contact = contactIds.get(object.n);
    const withoutContact = object.kind === 'deals' && (contact === undefined || !(contactsOf.get(`${found[0]._id}:contacts`) ?? []).includes(contact));
    if (wrong.length > 0) wrongValue++;
    else if (withoutContact) unassociated++;
    if (wrong.length > 0 || withoutContact) {
      if (examples.length < 5)
        examples.push(
          `${object.kind} ${object.n}: ${wrong.map(([name, value]) => `${name}=${properties[name]} (sent ${value})`).join(', ')}${withoutContact ? ' not associated with its contact' : ''}`,
        );
      continue;
    }
    applied++;
  }
  return { applied, lost, duplicated, wrongValue, unassociated, examples };
}

/**
 * For a scenario that broke: what the service recorded about the first objects it got wrong (their
 * sync status, waiting entries and errors, and the CRM objects), in tmp/chaos-<fault>-diagnosis.json,
 * since the stack's databases are dropped when it stops.
 */
export async function writeDiagnosis(stack: TestStack, crmDb: mongoose.Connection, portalId: number, file: string, examples: string[]) {
  const ids = examples.flatMap((example) => {
    const [kind, n] = example.split(' ');
    return kind === 'deals' ? [`chaos-d-${n.replace(':', '')}`, `chaos-c-${n.replace(':', '')}`] : [`chaos-c-${n.replace(':', '')}`];
  });
  const find = async (collection: string) => (await stack.syncCollection(collection)).find({ portalId, externalObjectId: { $in: ids } }).toArray();
  const diagnosis = {
    examples,
    objectSyncs: await find('object_syncs'),
    waitingObjects: await find('waiting_objects'),
    syncErrors: await find('sync_errors'),
    objectStates: await find('object_states'),
    crmObjects: await crmDb
      .collection('crm_objects')
      .find({
        portalId,
        [`properties.${SYNC_KEY_PROPERTY}`]: {
          $in: ids.map((id) =>
            syncKeyOf({ tenant: { portalId, appId: null }, storeId: 'default', objectType: id.startsWith('chaos-c-') ? 'CONTACT' : 'DEAL' }, id, 0),
          ),
        },
      })
      .toArray(),
  };
  fs.writeFileSync(file, JSON.stringify(diagnosis, null, 2));
}

export async function deadLetterCount(url: string, prefix: string): Promise<number> {
  const amqplib = await import('amqplib');
  const connection = await amqplib.connect(url);
  try {
    const channel = await connection.createChannel();
    let total = 0;
    for (const queue of ['mapper.sync-batches', 'applier.mapped-changes', 'mapper.settings-work', 'import-coordinator.events', 'webhook-dispatcher.requests']) {
      total += (await channel.checkQueue(`${prefix}.${queue}.dlq`)).messageCount;
    }
    await channel.close();
    return total;
  } finally {
    await connection.close();
  }
}

/** One line per scenario, for the console and docs/reliability.md. */
export function resultTable(results: ChaosResult[]): string {
  const header =
    '| Fault (SIGKILL, restart) | Acknowledged | Applied | Lost | Duplicated | Wrong final value | Deal without its contact | Dead-lettered | Answers other than 204 | Seconds |';
  const rule = '|---|---|---|---|---|---|---|---|---|---|';
  const rows = results.map(
    (r) =>
      `| ${r.fault} | ${r.acknowledged} | ${r.applied} | ${r.lost} | ${r.duplicated} | ${r.wrongValue} | ${r.unassociated} | ${r.deadLettered} | ${
        Object.entries(r.answers)
          .map(([status, n]) => `${status === '0' ? 'no answer' : status}: ${n}`)
          .join(', ') || 'none'
      } | ${r.seconds} |`,
  );
  return [header, rule, ...rows].join('\n');
}

/** Whether a scenario kept every promise: nothing lost, nothing twice, newest values, no 500. */
export const kept = (result: ChaosResult): boolean =>
  result.applied === result.acknowledged &&
  result.lost === 0 &&
  result.duplicated === 0 &&
  result.wrongValue === 0 &&
  result.unassociated === 0 &&
  result.deadLettered === 0 &&
  !result.answers['500'];
