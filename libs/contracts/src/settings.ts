import type { DataType, ObjectType } from './enums';

/** A mapping in the service's own terms (the v2 names); v1 names map onto it one to one. */
export interface PropertyMapping {
  externalPropertyName: string;
  crmPropertyName: string;
  dataType: DataType;
}

/** The settings of an application, or of a portal in direct mode, as the processing sees them. */
export interface SyncSettings {
  enabled: boolean;
  mappings: Partial<Record<ObjectType, PropertyMapping[]>>;
}
