import { Schema, type Connection } from 'mongoose';

/** A re-map of stored objects after a settings change: its progress is the API's and the resume point. */
const reapplyJobSchema = new Schema(
  {
    owner: { type: String, required: true },
    settingsRev: { type: Number, required: true },
    objectTypes: { type: [String], required: true },
    status: { type: String, enum: ['running', 'completed', 'superseded'], required: true },
    /** Index into objectTypes and the last object_states _id (its key) done within it. */
    typeIndex: { type: Number, required: true, default: 0 },
    lastId: { type: String, default: null },
    objectsProcessed: { type: Number, required: true, default: 0 },
    startedAt: { type: Number, required: true },
    updatedAt: { type: Number, required: true },
    finishedAt: { type: Number, default: null },
  },
  { collection: 'reapply_jobs', versionKey: false },
);
// Serves: one job per settings revision (a redelivered event starts nothing twice).
reapplyJobSchema.index({ owner: 1, settingsRev: 1 }, { unique: true });

export const reapplyJobModel = (connection: Connection) => connection.model('ReapplyJob', reapplyJobSchema);
