import { Schema, type Connection } from 'mongoose';
import type { PropertyHistory } from '../domain/property-history';
import { oauthModels } from './oauth-models';

const accountSchema = new Schema(
  {
    portalId: { type: Number, required: true },
    tokenHash: { type: String, required: true },
    pipelineLimit: { type: Number, required: true },
    /** The hosted CRM's limits this account emulates (HostedLimits); null: none; absent: the environment's. */
    limits: { type: Schema.Types.Mixed },
  },
  { collection: 'crm_accounts', versionKey: false, timestamps: true },
);
// Serves: authentication by bearer token.
accountSchema.index({ tokenHash: 1 }, { unique: true });
// Serves: admin reads and updates of one account.
accountSchema.index({ portalId: 1 }, { unique: true });

const propertySchema = new Schema(
  {
    portalId: { type: Number, required: true },
    objectType: { type: String, required: true },
    name: { type: String, required: true },
    label: { type: String, required: true },
    type: { type: String, required: true },
    fieldType: { type: String },
    groupName: { type: String },
    hasUniqueValue: { type: Boolean, default: false },
    options: { type: Schema.Types.Mixed },
  },
  { collection: 'crm_properties', versionKey: false },
);

const propertyGroupSchema = new Schema(
  {
    portalId: { type: Number, required: true },
    objectType: { type: String, required: true },
    name: { type: String, required: true },
    label: { type: String, required: true },
    displayOrder: { type: Number, default: -1 },
  },
  { collection: 'crm_property_groups', versionKey: false },
);
// Serves: the groups of one object type (listed, and checked when a property names one).
propertyGroupSchema.index({ portalId: 1, objectType: 1, name: 1 }, { unique: true });
// Serves: the property definitions of one object type (every write validates against them).
propertySchema.index({ portalId: 1, objectType: 1, name: 1 }, { unique: true });

const objectSchema = new Schema(
  {
    /** The object's id (ids are unique across portals and types): reads and writes by id use the _id index. */
    _id: { type: Number, required: true },
    portalId: { type: Number, required: true },
    objectType: { type: String, required: true },
    id: { type: Number, required: true },
    properties: { type: Schema.Types.Mixed, default: {} },
    /** Each property's last values (PropertyHistory), oldest first; read only when a caller asks for them. */
    history: { type: Schema.Types.Mixed },
    archived: { type: Boolean, default: false },
    createdAt: { type: Date, required: true },
    updatedAt: { type: Date, required: true },
  },
  { collection: 'crm_objects', versionKey: false, minimize: false },
);
// Contact search by e-mail goes through the e-mails' claims in crm_unique_values.
// Associations are not on the objects but in crm_object_associations (decision 56).

const objectAssociationsSchema = new Schema(
  {
    /** associationsKey(objectId, toType): the associations of one object with objects of one type. */
    _id: { type: String, required: true },
    portalId: { type: Number, required: true },
    /** Every associated id (each association has the default type), in the order associated. */
    ids: { type: [Number], default: undefined },
    /** The labels some of them carry besides (`{id, typeId}`; the other object's document holds the label's other direction). */
    labels: { type: [Schema.Types.Mixed], default: undefined },
  },
  { collection: 'crm_object_associations', versionKey: false },
);
// The _id serves every read and write (`_id: {$in}` for many objects at once). Deleting a label
// scans the portal's documents for it: a rare change, not worth an index every association writes.

const uniqueValueSchema = new Schema(
  {
    /** uniqueValueKey(portalId, objectType, property, value): one value of a unique property has one owner. */
    _id: { type: String, required: true },
    portalId: { type: Number, required: true },
    objectType: { type: String, required: true },
    property: { type: String, required: true },
    value: { type: String, required: true },
    objectId: { type: Number, required: true },
    claimedAt: { type: Date },
  },
  { collection: 'crm_unique_values', versionKey: false },
);
// The _id serves upsert by a unique property (`_id: {$in}`) and refuses a second object with the same
// value; a contact's e-mail is claimed lower-cased, as the hosted CRM holds one contact per e-mail.

const pipelineSchema = new Schema(
  {
    portalId: { type: Number, required: true },
    id: { type: String, required: true },
    label: { type: String, required: true },
    displayOrder: { type: Number, default: 0 },
    stages: { type: [Schema.Types.Mixed], default: [] },
    createdAt: { type: String },
    updatedAt: { type: String },
  },
  { collection: 'crm_pipelines', versionKey: false },
);
// Serves: the deal pipelines of a portal.
pipelineSchema.index({ portalId: 1, id: 1 }, { unique: true });
// One label per portal, as the hosted CRM holds it: two creates of one label at once make one pipeline.
pipelineSchema.index({ portalId: 1, label: 1 }, { unique: true });

const associationLabelSchema = new Schema(
  {
    portalId: { type: Number, required: true },
    fromObjectType: { type: String, required: true },
    toObjectType: { type: String, required: true },
    name: { type: String, required: true },
    typeId: { type: Number, required: true },
    label: { type: String, required: true },
    inverseLabel: { type: String },
    /** Set when the label was deleted: the document stays, so that its type ids are never given again. */
    deletedAt: { type: Date },
  },
  { collection: 'crm_association_labels', versionKey: false },
);
// Serves: the labels of a pair of types (listed, and checked when an association names one); one name per pair.
associationLabelSchema.index({ portalId: 1, fromObjectType: 1, toObjectType: 1, name: 1 }, { unique: true });
// Serves: a label by either of its type ids (labelKeyOf); gives each label type ids of its own, for
// good (a deleted label keeps its document and so its ids; its name is freed, see AssociationLabelStore.remove).
associationLabelSchema.index({ portalId: 1, typeId: 1 }, { unique: true });

/**
 * Blocks of object ids, each taken by one CRM process by inserting its number: an insert on a unique
 * key is atomic on every MongoDB-compatible server (a find-and-modify `$inc` is not on the
 * development server, which handed out one id twice under load).
 */
const idBlockSchema = new Schema({ _id: { type: Number, required: true } }, { collection: 'crm_id_blocks', versionKey: false });

/** A CRM object as stored: `_id` is its id. */
export interface CrmObjectDoc {
  _id: number;
  portalId: number;
  objectType: string;
  id: number;
  properties: Record<string, string | null>;
  history?: PropertyHistory;
  archived: boolean;
  createdAt: Date;
  updatedAt: Date;
}

/** One object's associations with objects of one type: `_id` is associationsKey(objectId, toType). */
export interface ObjectAssociationsDoc {
  _id: string;
  portalId: number;
  ids?: number[];
  labels?: AssociationLabelRef[];
}

/** The document of one object's associations with objects of one type. */
export const associationsKey = (objectId: number, toType: string): string => `${objectId}:${toType}`;

/** A label on one association, kept with the object it starts at: the other object's id and the label's type id. */
export interface AssociationLabelRef {
  id: number;
  typeId: number;
}

/** The claim of one value of a unique property: `_id` is uniqueValueKey(portalId, objectType, property, value). */
export interface UniqueValueDoc {
  _id: string;
  portalId: number;
  objectType: string;
  property: string;
  value: string;
  objectId: number;
  /** When the owner claimed it (claimState): claims made before claims carried it have none. */
  claimedAt?: Date | null;
}

export function crmModels(connection: Connection) {
  return {
    accounts: connection.model('CrmAccount', accountSchema),
    properties: connection.model('CrmProperty', propertySchema),
    propertyGroups: connection.model('CrmPropertyGroup', propertyGroupSchema),
    objects: connection.model('CrmObject', objectSchema),
    objectAssociations: connection.model('CrmObjectAssociations', objectAssociationsSchema),
    uniqueValues: connection.model('CrmUniqueValue', uniqueValueSchema),
    pipelines: connection.model('CrmPipeline', pipelineSchema),
    associationLabels: connection.model('CrmAssociationLabel', associationLabelSchema),
    idBlocks: connection.model('CrmIdBlock', idBlockSchema),
    ...oauthModels(connection),
  };
}
export type CrmModels = ReturnType<typeof crmModels>;
