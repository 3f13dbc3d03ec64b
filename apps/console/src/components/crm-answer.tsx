import type { CrmAnswer } from '@ecomm-sync/contracts';

/** What the CRM itself answered when it refused a write: what a CRM admin or its support asks for first. */
export function CrmAnswerLine({ crm }: { crm?: CrmAnswer }) {
  if (!crm || (!crm.status && !crm.category && !crm.correlationId)) return null;
  return (
    <p className="muted crm-answer">
      The CRM answered{crm.status ? ` ${crm.status}` : ''}
      {crm.category ? (
        <>
          {' '}
          (<code>{crm.category}</code>)
        </>
      ) : null}
      {crm.correlationId ? (
        <>
          ; its correlation id, for the CRM&apos;s support: <code>{crm.correlationId}</code>
        </>
      ) : null}
      .
    </p>
  );
}
