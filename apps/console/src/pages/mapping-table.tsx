import type { DataType, ObjectType } from '@ecomm-sync/contracts';
import { SelectField } from '../components/select-field';
import type { Row } from './mappings-draft';
import { typeLabel } from './scope';

const DATA_TYPES: DataType[] = ['STRING', 'NUMBER', 'DATETIME', 'AVATAR_IMAGE'];

/** One object type's mappings as rows of inputs, with the CRM's property names offered. */
export function MappingTable({
  type,
  rows,
  crmProperties,
  onChange,
}: {
  type: ObjectType;
  rows: Row[];
  crmProperties: string[];
  onChange: (rows: Row[]) => void;
}) {
  const listId = `crm-properties-${type}`;
  const set = (index: number, change: Partial<Row>) => onChange(rows.map((row, i) => (i === index ? { ...row, ...change } : row)));
  return (
    <section className="card" aria-labelledby={`mappings-${type}`}>
      <h2 id={`mappings-${type}`}>{typeLabel[type]}</h2>
      <datalist id={listId}>
        {crmProperties.map((name) => (
          <option key={name} value={name} />
        ))}
      </datalist>
      {rows.length === 0 ? <p>No mappings: properties sent for {typeLabel[type].toLowerCase()} are stored but not written to the CRM.</p> : null}
      {rows.map((row, index) => (
        <div className="mapping-row" key={index} data-mapping={`${type}-${index}`}>
          <label>
            Store property
            <input value={row.externalPropertyName} onChange={(e) => set(index, { externalPropertyName: e.target.value })} />
          </label>
          <label>
            CRM property
            <input list={listId} value={row.crmPropertyName} onChange={(e) => set(index, { crmPropertyName: e.target.value })} />
          </label>
          <SelectField label="Data type" value={row.dataType} onChange={(dataType) => set(index, { dataType: dataType as DataType })} choices={DATA_TYPES} />
          <button
            type="button"
            className="plain align-end"
            onClick={() => onChange(rows.filter((_, i) => i !== index))}
            aria-label={`Remove the ${typeLabel[type]} mapping of ${row.externalPropertyName || 'a new property'}`}
          >
            Remove
          </button>
        </div>
      ))}
      <button type="button" className="plain" onClick={() => onChange([...rows, { externalPropertyName: '', crmPropertyName: '', dataType: 'STRING' }])}>
        Add a {typeLabel[type].toLowerCase().replace(/s$/, '')} mapping
      </button>
      {crmProperties.length > 0 ? (
        <p className="help">The CRM defines {crmProperties.length} properties for this type; the CRM property field offers them.</p>
      ) : null}
    </section>
  );
}
