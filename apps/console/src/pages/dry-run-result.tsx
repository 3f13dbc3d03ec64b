import type { ConsoleDryRunResult } from '@ecomm-sync/contracts';
import { typeLabel } from './scope';

const OUTCOME: Record<ConsoleDryRunResult['associationTargets'][number]['outcome'], (crmId: number | null) => string> = {
  links: (crmId) => `links to CRM object ${crmId}`,
  waits: () => 'not in the CRM yet: the object would wait for it, and be written once it arrives',
  'not-linked': () => 'not in the CRM yet: the update would go without this association, with an error until it arrives and is linked',
  'links-later': () => 'not in the CRM yet: linked when it arrives, no error',
};

/** What each association would link to, from the links the applier stored. */
function AssociationTargets({ result }: { result: ConsoleDryRunResult }) {
  if (result.associationTargets.length === 0) return null;
  return (
    <table>
      <caption>Associations it would make (from the objects already synced)</caption>
      <thead>
        <tr>
          <th scope="col">Object</th>
          <th scope="col">What it would do</th>
        </tr>
      </thead>
      <tbody>
        {result.associationTargets.map((target) => (
          <tr
            key={`${target.objectType}:${target.externalObjectId}`}
            data-association={`${target.objectType}:${target.externalObjectId}`}
            data-outcome={target.outcome}
          >
            <th scope="row">
              {typeLabel[target.objectType].replace(/s$/, '')} {target.externalObjectId}
            </th>
            <td className={target.outcome === 'links' ? undefined : 'warn'}>{OUTCOME[target.outcome](target.crmId)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

const VERB: Record<ConsoleDryRunResult['operation'], string> = { CREATE: 'create', UPDATE: 'update', DELETE: 'delete' };

/** "Would create li-1", or, when an association it needs is not in the CRM yet, that it would wait first. */
function heading(result: ConsoleDryRunResult): string {
  const waits = result.associationTargets.some((target) => target.outcome === 'waits');
  const verb = VERB[result.operation];
  return waits ? `Would wait, then ${verb} ${result.externalObjectId} once what it needs is in the CRM` : `Would ${verb} ${result.externalObjectId}`;
}

export function DryRunResult({ result }: { result: ConsoleDryRunResult }) {
  return (
    <div className="card" data-testid="dry-run-result" aria-live="polite">
      <h3>{heading(result)}</h3>
      <table>
        <caption>CRM properties it would write</caption>
        <tbody>
          {Object.entries(result.properties).map(([name, value]) => (
            <tr key={name} data-property={name}>
              <th scope="row">{name}</th>
              <td>{value ?? '(cleared)'}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <AssociationTargets result={result} />
      {result.problems.length === 0 ? (
        <p data-testid="dry-run-errors">No errors: it would be written as shown.</p>
      ) : (
        <ul data-testid="dry-run-errors" className="errors">
          {result.problems.map((problem) => (
            <li key={problem.details} className="error-item" data-error-type={problem.type}>
              <strong>{problem.type}</strong> {problem.blocking ? '(not written)' : '(written without these values)'}
              <p className="details">{problem.details}</p>
            </li>
          ))}
        </ul>
      )}
      {result.settingsProblem ? <p className="form-error">These settings cannot be saved: {result.settingsProblem}</p> : null}
    </div>
  );
}
