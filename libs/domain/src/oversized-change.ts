import type { MappedChange, ObjectType } from '@ecomm-sync/contracts';
import { describeFailure } from './error-details';

/**
 * A mapped change too large for one message to the applier (its mapped state alone weighs more
 * than the broker takes): the same change with nothing to write and one blocking problem that says
 * how large it was and what to do. The object gets an error record and the rest of its batch (or
 * re-apply page) goes on, rather than the whole failing on every try. Null when there is nothing
 * left to drop (it carries no properties or associations and at most one problem).
 */
export function withoutOversizedState(objectType: ObjectType, change: MappedChange, bytes: number, maxBytes: number): MappedChange | null {
  const empty = Object.keys(change.properties).length === 0 && Object.keys(change.associations).length === 0;
  if (empty && change.problems.length <= 1) return null;
  const reason =
    `its mapped state makes a message of ${bytes} bytes, more than the ${maxBytes} bytes the broker takes in one, ` +
    'so it was not written; send shorter property values, or map fewer of them';
  return {
    ...change,
    properties: {},
    associations: {},
    problems: [{ type: 'UNKNOWN_ERROR', blocking: true, details: describeFailure(change.action, objectType, change.externalObjectId, reason) }],
  };
}
