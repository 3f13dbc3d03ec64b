import type { InboundMessage, ObjectType, PropertyValue } from '@ecomm-sync/contracts';
import { ownValue, setOwn } from './own-record';

export interface TimedValue<T> {
  value: T;
  changedAt: number;
}

/**
 * What is known of one sender object, merged from every message received for it.
 * Each property and each association list is a last-writer-wins register by changedAt,
 * so any delivery order of the same messages converges to the same state.
 */
export interface RawObjectState {
  properties: Record<string, TimedValue<PropertyValue>>;
  associations: Partial<Record<ObjectType, TimedValue<string[]>>>;
  /** changedAt of the newest DELETE, or null. */
  deletedAt: number | null;
  /** changedAt of the newest UPSERT that the newest DELETE did not cancel, or null. */
  upsertedAt: number | null;
}

export const emptyObjectState = (): RawObjectState => ({ properties: {}, associations: {}, deletedAt: null, upsertedAt: null });

/** The changedAt a message counts with: as sent, else the time the service received it. */
export const effectiveChangedAt = (message: Pick<InboundMessage, 'changedAt'>, receivedAt: number): number => message.changedAt ?? receivedAt;

/**
 * Orders two values written at the same changedAt, so that the winner does not depend on
 * which arrived first. Null (a clear) loses to any value.
 */
function wins<T>(candidate: TimedValue<T>, current: TimedValue<T> | undefined): boolean {
  if (!current) return true;
  if (candidate.changedAt !== current.changedAt) return candidate.changedAt > current.changedAt;
  // Compared as text, null ("null") sorted above every string, number and false: it won instead.
  if (candidate.value === null || current.value === null) return current.value === null && candidate.value !== null;
  return JSON.stringify(candidate.value) > JSON.stringify(current.value);
}

export function isLive(state: RawObjectState): boolean {
  return state.upsertedAt !== null && (state.deletedAt === null || state.upsertedAt > state.deletedAt);
}

/** The CRM object's incarnation: an upsert after a delete creates a new CRM object. */
export const generationOf = (state: RawObjectState): number => state.deletedAt ?? 0;

export function newestChangeOf(state: RawObjectState): number {
  return Math.max(state.deletedAt ?? 0, state.upsertedAt ?? 0);
}

/** Merges one message into a state. Pure: returns a new state and whether anything changed. */
export function mergeMessage(state: RawObjectState, message: InboundMessage, receivedAt: number): { state: RawObjectState; changed: boolean } {
  const at = effectiveChangedAt(message, receivedAt);
  if (message.action === 'DELETE') {
    if (state.deletedAt !== null && at <= state.deletedAt) return { state, changed: false };
    const keep = <T>(entry: TimedValue<T> | undefined) => entry !== undefined && entry.changedAt > at;
    const next: RawObjectState = {
      properties: Object.fromEntries(Object.entries(state.properties).filter(([, entry]) => keep(entry))),
      associations: Object.fromEntries(Object.entries(state.associations).filter(([, entry]) => keep(entry))),
      deletedAt: at,
      upsertedAt: state.upsertedAt !== null && state.upsertedAt > at ? state.upsertedAt : null,
    };
    return { state: next, changed: true };
  }

  if (state.deletedAt !== null && at <= state.deletedAt) return { state, changed: false };
  let changed = false;
  const properties = { ...state.properties };
  for (const [name, value] of Object.entries(message.properties)) {
    const candidate = { value, changedAt: at };
    // Sender names are any strings: `constructor` or `__proto__` are properties like any other.
    const current = ownValue(properties, name);
    if (wins(candidate, current)) {
      if (current?.changedAt !== at || current?.value !== value) changed = true;
      setOwn(properties, name, candidate);
    }
  }
  const associations = { ...state.associations };
  for (const [type, ids] of Object.entries(message.associations ?? {}) as [ObjectType, string[]][]) {
    const candidate = { value: [...new Set(ids)].sort(), changedAt: at };
    if (wins(candidate, associations[type])) {
      changed = true;
      associations[type] = candidate;
    }
  }
  const upsertedAt = state.upsertedAt === null || at > state.upsertedAt ? at : state.upsertedAt;
  if (upsertedAt !== state.upsertedAt) changed = true;
  return { state: { properties, associations, deletedAt: state.deletedAt, upsertedAt }, changed };
}

const isUntimed = (message: InboundMessage) => message.changedAt === null || message.changedAt === undefined;

/**
 * One batch's messages of one object without `changedAt`, as the messages their order leaves: all
 * take the batch's receipt time, where the tie rule (the larger value) would choose between them
 * and a DELETE would hide an UPSERT after it. So the upserts before the last DELETE are dropped
 * (deleted later in the batch), the upserts after it are folded into one, each value over the one
 * before it, and that DELETE counts a millisecond before the receipt time when an upsert follows
 * it, which recreates the object at the receipt time (decision 5, addendum). Every other batch
 * meets them at the receipt time, as before.
 */
function foldUntimed(messages: readonly InboundMessage[], receivedAt: number): { message: InboundMessage; at: number }[] {
  const lastDelete = messages.map((message) => message.action).lastIndexOf('DELETE');
  const upserts = messages.slice(lastDelete + 1);
  const folded: { message: InboundMessage; at: number }[] = [];
  if (lastDelete >= 0) folded.push({ message: messages[lastDelete], at: upserts.length > 0 ? receivedAt - 1 : receivedAt });
  if (upserts.length > 0) {
    const properties: InboundMessage['properties'] = {};
    const associations: NonNullable<InboundMessage['associations']> = {};
    for (const upsert of upserts) {
      for (const [name, value] of Object.entries(upsert.properties)) setOwn(properties, name, value);
      Object.assign(associations, upsert.associations ?? {});
    }
    folded.push({ message: { ...upserts[0], properties, associations }, at: receivedAt });
  }
  return folded;
}

/**
 * Merges one object's messages of one batch: those with `changedAt` each at its time, those without
 * as their order in the batch leaves them (`foldUntimed`). The batch's order is the sender's and the
 * same on every redelivery, so batches still converge in any order.
 */
export function mergeMessages(state: RawObjectState, messages: readonly InboundMessage[], receivedAt: number): { state: RawObjectState; changed: boolean } {
  let changed = false;
  let current = state;
  const timed = messages.filter((message) => !isUntimed(message)).map((message) => ({ message, at: receivedAt }));
  for (const { message, at } of [...timed, ...foldUntimed(messages.filter(isUntimed), receivedAt)]) {
    const result = mergeMessage(current, message, at);
    current = result.state;
    changed ||= result.changed;
  }
  return { state: current, changed };
}
