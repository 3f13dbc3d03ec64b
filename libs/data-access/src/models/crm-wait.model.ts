import { Schema, type Connection } from 'mongoose';

/** A portal whose CRM work waits (rate-limited, daily cap, unreachable): what users read, and when the applier resumes it. */
const crmWaitSchema = new Schema(
  {
    /** The portal id. */
    _id: { type: Number, required: true },
    reason: { type: String, required: true },
    since: { type: Number, required: true },
    until: { type: Number, required: true },
    tries: { type: Number, required: true },
    lastAnswer: { type: String, required: true },
    /** Renewed whenever a change is parked: a resume ends the wait only if nothing was parked since it looked. */
    stamp: { type: String, default: null },
  },
  { collection: 'crm_waits', versionKey: false },
);
// Serves: the portals whose wait has ended (resuming their parked changes).
crmWaitSchema.index({ until: 1 });

export const crmWaitModel = (connection: Connection) => connection.model('CrmWait', crmWaitSchema);
