import { onlyDuplicateKeyErrors } from '@ecomm-sync/data-access';
import { keyOf, TtlCache } from '@ecomm-sync/domain';
import { DEFAULT_GROUPS, withDefaults, type CrmType, type PropertyDefinition } from '../domain/object-types';
import { CrmError, type CrmErrorDetails } from '../domain/crm-error';
import { valueProblem } from '../domain/validate-values';
import type { CrmModels } from './crm-models';

/** The hosted CRM's `errors[]` and `context` of a refused property value. */
const propertyDetails = (name: string, code: string, message: string): CrmErrorDetails => ({
  errors: [{ message, code, in: name, context: { propertyName: [name] } }],
  context: { propertyName: [name] },
});

/** Property definitions per portal and object type; every object write is validated against them. */
export class PropertyStore {
  /** Definitions are read at most once a second per portal and type: writes validate against them. */
  private readonly definitionCache = new TtlCache<Map<string, PropertyDefinition>>(1000);

  constructor(private readonly models: CrmModels) {}

  async listProperties(portalId: number, objectType: CrmType): Promise<PropertyDefinition[]> {
    const docs = await this.models.properties.find({ portalId, objectType }).sort({ name: 1 }).lean();
    return docs.map((doc) =>
      withDefaults(objectType, {
        ...doc,
        type: doc.type as PropertyDefinition['type'],
        fieldType: doc.fieldType ?? undefined,
        groupName: doc.groupName ?? undefined,
      }),
    );
  }

  /** A property names a group of its object type, as in the hosted CRM: the type's default group or one created. */
  async createProperty(portalId: number, objectType: CrmType, definition: PropertyDefinition): Promise<PropertyDefinition> {
    if (!(await this.listGroups(portalId, objectType)).some((group) => group.name === definition.groupName))
      throw CrmError.invalidInput(
        `Property group "${definition.groupName}" does not exist on ${objectType}; create it first (POST /crm/v3/properties/${objectType}/groups)`,
      );
    try {
      // Only the definition's own fields, and the caller's portal and type always win.
      const { name, label, type, fieldType, groupName, hasUniqueValue, options } = definition;
      await this.models.properties.create({ name, label, type, fieldType, groupName, hasUniqueValue, options, portalId, objectType });
    } catch (error) {
      if (onlyDuplicateKeyErrors(error)) throw CrmError.conflict(`Property "${definition.name}" already exists on ${objectType}`);
      throw error;
    }
    this.definitionCache.delete(keyOf(portalId, objectType));
    return definition;
  }

  async listGroups(portalId: number, objectType: CrmType): Promise<{ name: string; label: string; displayOrder: number }[]> {
    const created = await this.models.propertyGroups.find({ portalId, objectType }).sort({ name: 1 }).lean();
    return [
      { ...DEFAULT_GROUPS[objectType], displayOrder: -1 },
      ...created.map(({ name, label, displayOrder }) => ({ name, label, displayOrder: displayOrder ?? -1 })),
    ];
  }

  async createGroup(
    portalId: number,
    objectType: CrmType,
    group: { name: string; label: string; displayOrder?: number },
  ): Promise<{ name: string; label: string; displayOrder: number }> {
    const created = { name: group.name, label: group.label, displayOrder: group.displayOrder ?? -1 };
    if (group.name === DEFAULT_GROUPS[objectType].name) throw CrmError.conflict(`Property group "${group.name}" already exists on ${objectType}`);
    try {
      await this.models.propertyGroups.create({ ...created, portalId, objectType });
    } catch (error) {
      if (onlyDuplicateKeyErrors(error)) throw CrmError.conflict(`Property group "${group.name}" already exists on ${objectType}`);
      throw error;
    }
    return created;
  }

  async deleteProperty(portalId: number, objectType: CrmType, name: string): Promise<boolean> {
    const deleted = (await this.models.properties.deleteOne({ portalId, objectType, name })).deletedCount === 1;
    this.definitionCache.delete(keyOf(portalId, objectType));
    return deleted;
  }

  async definitions(portalId: number, objectType: CrmType): Promise<Map<string, PropertyDefinition>> {
    return this.definitionCache.get(
      keyOf(portalId, objectType),
      async () => new Map((await this.listProperties(portalId, objectType)).map((d) => [d.name, d])),
    );
  }

  /** The definitions, once every input's values are known to fit them; else an INVALID_INPUT naming the first misfit. */
  async validateProperties(portalId: number, objectType: CrmType, inputs: { properties: Record<string, unknown> }[]): Promise<Map<string, PropertyDefinition>> {
    const definitions = await this.definitions(portalId, objectType);
    inputs.forEach((input, index) => {
      if (!input.properties || typeof input.properties !== 'object') throw CrmError.invalidInput(`inputs[${index}].properties must be an object`);
      for (const [name, value] of Object.entries(input.properties)) {
        const definition = definitions.get(name);
        if (!definition) {
          const message = `Property "${name}" does not exist on ${objectType} (inputs[${index}]); create it first`;
          throw CrmError.invalidInput(message, propertyDetails(name, 'PROPERTY_DOESNT_EXIST', message));
        }
        const problem = valueProblem(objectType, definition, value);
        if (problem) {
          const message = `Property "${name}" of inputs[${index}]: ${problem.code}: ${problem.message}`;
          throw CrmError.invalidInput(message, propertyDetails(name, problem.code, message));
        }
      }
    });
    return definitions;
  }
}
