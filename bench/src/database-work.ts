/**
 * Where the database server's time goes, per collection and command: the development server's
 * `ecommCommandStats` (tools/mongo-server, CommandStats.java) read before and after a run. A real
 * MongoDB does not report it: then the figure says so and nothing else changes.
 */
import mongoose from 'mongoose';
import { testInfrastructure, type MongoCommandStat } from '@ecomm-sync/testing';
import { round } from './stats';

export interface DatabaseWork {
  /** The server's time over the run, all commands, in ms. */
  totalMs: number;
  /** The costliest collections and commands, most time first: commands and documents per object, the share of the time. */
  top: { what: string; commandsPerObject: number; documentsPerObject: number; ms: number; share: number }[];
}

async function readStats(): Promise<MongoCommandStat[] | null> {
  const connection = await mongoose.createConnection(testInfrastructure().mongoUrl).asPromise();
  try {
    const status = await connection.db!.admin().command({ serverStatus: 1 });
    return (status.ecommCommandStats as MongoCommandStat[] | undefined) ?? null;
  } finally {
    await connection.close();
  }
}

interface CommandDelta {
  what: string;
  commands: number;
  documents: number;
  ms: number;
}

/**
 * Starts counting; `done(objects)` tells the work since, per object; `commands(pattern)` the
 * commands since on the collections and commands whose "db.collection command" matches.
 */
export async function databaseWork(stackName: string): Promise<{
  done: (objects: number) => Promise<DatabaseWork | null>;
  commands: (pattern: RegExp) => Promise<number | null>;
}> {
  const before = await readStats();
  const keyOf = (stat: MongoCommandStat) => `${stat.db.replace(`${stackName}_`, '')}.${stat.collection} ${stat.command}`;
  const deltasSince = async (): Promise<CommandDelta[] | null> => {
    const after = await readStats();
    if (!before || !after) return null;
    const earlier = new Map(before.map((stat) => [keyOf(stat), stat]));
    return after
      .filter((stat) => stat.db.startsWith(stackName))
      .map((stat) => {
        const was = earlier.get(keyOf(stat));
        return {
          what: keyOf(stat),
          commands: stat.commands - (was?.commands ?? 0),
          documents: stat.documents - (was?.documents ?? 0),
          ms: (stat.micros - (was?.micros ?? 0)) / 1000,
        };
      })
      .filter((delta) => delta.commands > 0);
  };
  return {
    async done(objects) {
      const deltas = await deltasSince();
      if (!deltas) return null;
      const totalMs = deltas.reduce((sum, delta) => sum + delta.ms, 0);
      const top = deltas
        .sort((a, b) => b.ms - a.ms)
        .slice(0, 16)
        .map((delta) => ({
          what: delta.what,
          commandsPerObject: round(delta.commands / objects, 3),
          documentsPerObject: round(delta.documents / objects, 2),
          ms: round(delta.ms),
          share: round(delta.ms / Math.max(1, totalMs), 3),
        }));
      return { totalMs: round(totalMs), top };
    },
    async commands(pattern) {
      const deltas = await deltasSince();
      return deltas ? deltas.filter((delta) => pattern.test(delta.what)).reduce((sum, delta) => sum + delta.commands, 0) : null;
    },
  };
}

/** A sentence for below the results table. */
export function databaseWorkNote(work: DatabaseWork | null): string[] {
  if (!work) return ['Database work per collection: not reported by this server.'];
  const parts = work.top.map((t) => `${t.what} ${Math.round(t.share * 100)} % (${t.commandsPerObject} commands, ${t.documentsPerObject} documents per object)`);
  return [`Database server time during the end-to-end first pass, ${work.totalMs} ms, by collection and command: ${parts.join('; ')}.`];
}
