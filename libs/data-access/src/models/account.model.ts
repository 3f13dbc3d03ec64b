import { Schema, type Connection } from 'mongoose';

const developerSchema = new Schema(
  {
    developerId: { type: Number, required: true },
    name: { type: String, required: true },
  },
  { collection: 'developers', timestamps: true, versionKey: false },
);
// Serves: developer by id (admin API, application ownership).
developerSchema.index({ developerId: 1 }, { unique: true });

const applicationSchema = new Schema(
  {
    appId: { type: String, required: true },
    developerId: { type: Number, required: true },
    name: { type: String, required: true },
    clientId: { type: String, required: true },
    /** sha256 of the client secret (checked by the OAuth token endpoint). */
    clientSecretHash: { type: String, required: true },
    /** The client secret sealed with SECRETS_KEY (SecretBox): it signs the application's webhooks. */
    clientSecretSealed: { type: String, required: true },
  },
  { collection: 'applications', timestamps: true, versionKey: false },
);
// Serves: application by id (every application-mode request).
applicationSchema.index({ appId: 1 }, { unique: true });
// Serves: the OAuth token endpoint (client_id).
applicationSchema.index({ clientId: 1 }, { unique: true });
// Serves: the applications of a developer (admin listing).
applicationSchema.index({ developerId: 1, appId: 1 });

export const developerModel = (connection: Connection) => connection.model('Developer', developerSchema);
export const applicationModel = (connection: Connection) => connection.model('Application', applicationSchema);
