import { Schema, type Connection } from 'mongoose';

/**
 * A portal's intake pace, shared by every gateway and import-coordinator replica (decision 57):
 * `due` is when everything the portal was let in would have been taken at its rate (epoch ms). One
 * small document per portal that ever sent while the pace was on; nothing else reads it, so it has
 * no index but `_id`.
 */
const intakePaceSchema = new Schema(
  {
    /** The portal id. */
    _id: { type: Number, required: true },
    due: { type: Number, required: true },
  },
  { collection: 'intake_paces', versionKey: false },
);

export const intakePaceModel = (connection: Connection) => connection.model('IntakePace', intakePaceSchema);
