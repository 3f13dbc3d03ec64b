import { useEffect, useRef, useState } from 'react';
import type { AlertDestinationInput, ConsoleAlertDestination } from '@ecomm-sync/contracts';
import { SelectField } from '../components/select-field';
import { TimeOf } from '../components/states';
import { ALERT_EMAIL_PATTERN, ALERT_URL_PATTERN, MAX_ALERT_EMAIL_LENGTH, MAX_ALERT_LABEL_LENGTH, MAX_ALERT_URL_LENGTH } from '../input-limits';
import type { ShownSecret } from './use-alerts';

type Kind = ConsoleAlertDestination['kind'];

export const DESTINATION_KINDS: Record<Kind, { text: string; address: string; hint: string }> = {
  email: { text: 'E-mail', address: 'E-mail address', hint: 'Notices are sent through the SMTP server your operator configured.' },
  webhook: {
    text: 'Signed webhook',
    address: 'Webhook URL',
    hint: 'A public https:// address; each notice is signed (X-Crm-Signature-v3) with a secret shown once.',
  },
  slack: { text: 'Slack incoming webhook', address: 'Incoming-webhook URL', hint: 'https://hooks.slack.com/services/… or any Slack-compatible address.' },
};

/** A webhook's signing secret, answered once by the API: shown here once, focused, until dismissed. */
export function SigningSecret({ shown, onDismiss }: { shown: ShownSecret; onDismiss: () => void }) {
  const panel = useRef<HTMLElement>(null);
  useEffect(() => panel.current?.focus(), [shown.secret]);
  return (
    <section className="card secret" ref={panel} tabIndex={-1} aria-labelledby="signing-secret-heading">
      <h3 id="signing-secret-heading">Signing secret of {shown.target}</h3>
      <p>
        <strong>Copy it now: it is shown only this once and cannot be shown again.</strong> Your endpoint checks each notice&apos;s X-Crm-Signature-v3 header
        with it. Lost it? Remove the destination and add it again for a new secret.
      </p>
      <p>
        <code className="secret-value" data-testid="signing-secret">
          {shown.secret}
        </code>
      </p>
      <button type="button" onClick={onDismiss}>
        I have copied it
      </button>
    </section>
  );
}

/** The destinations every notice of the tenant goes to; each can be removed. */
export function AlertDestinationsTable({
  destinations,
  busy,
  onRemove,
}: {
  destinations: readonly ConsoleAlertDestination[];
  busy: boolean;
  onRemove: (destination: ConsoleAlertDestination) => void;
}) {
  if (destinations.length === 0)
    return <p className="muted">No destinations yet: rules change state on this page and the overview, but nobody is told. Add one below.</p>;
  return (
    <table>
      <caption>Where notices go</caption>
      <thead>
        <tr>
          <th scope="col">Kind</th>
          <th scope="col">Address</th>
          <th scope="col">Label</th>
          <th scope="col">Added</th>
          <th scope="col">Action</th>
        </tr>
      </thead>
      <tbody>
        {destinations.map((destination) => (
          <tr key={destination.id} data-destination={destination.target}>
            <td>{DESTINATION_KINDS[destination.kind].text}</td>
            <th scope="row" className="address">
              {destination.target}
            </th>
            <td>{destination.label}</td>
            <td>
              <TimeOf at={destination.createdAt} />
            </td>
            <td>
              <button
                type="button"
                className="plain"
                disabled={busy}
                aria-label={`Remove destination ${destination.target}`}
                onClick={() => window.confirm(`Remove the destination ${destination.target}? Its pending notices will not be sent.`) && onRemove(destination)}
              >
                Remove
              </button>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** Adds a destination; what was typed stays when the service refuses it. */
export function AlertDestinationForm({ busy, onAdd }: { busy: boolean; onAdd: (input: AlertDestinationInput) => Promise<unknown> }) {
  const [kind, setKind] = useState<Kind>('email');
  const [address, setAddress] = useState('');
  const [label, setLabel] = useState('');
  const about = DESTINATION_KINDS[kind];
  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    const labelled = label.trim() ? { label: label.trim() } : {};
    const input: AlertDestinationInput = kind === 'email' ? { kind, email: address.trim(), ...labelled } : { kind, url: address.trim(), ...labelled };
    if ((await onAdd(input)) === undefined) return;
    setAddress('');
    setLabel('');
  };
  return (
    <>
      <h3 id="add-destination">Add a destination</h3>
      <form className="filters alert-form" aria-labelledby="add-destination" onSubmit={(e) => void submit(e)}>
        <SelectField
          label="Kind"
          value={kind}
          onChange={(value) => setKind(value as Kind)}
          choices={Object.entries(DESTINATION_KINDS).map(([value, { text }]) => [value, text] as const)}
        />
        <div className="field wide">
          <label htmlFor="destination-address">{about.address}</label>
          <input
            id="destination-address"
            type={kind === 'email' ? 'email' : 'url'}
            value={address}
            onChange={(e) => setAddress(e.target.value)}
            required
            maxLength={kind === 'email' ? MAX_ALERT_EMAIL_LENGTH : MAX_ALERT_URL_LENGTH}
            pattern={kind === 'email' ? ALERT_EMAIL_PATTERN : ALERT_URL_PATTERN}
            title={kind === 'email' ? 'An e-mail address such as ops@example.com' : 'An address starting with https:// (or http://)'}
            placeholder={kind === 'email' ? 'ops@example.com' : 'https://hooks.example.com/ecomm-alerts'}
            aria-describedby="destination-hint"
          />
          <span className="help" id="destination-hint">
            {about.hint}
          </span>
        </div>
        <label>
          Label (optional)
          <input value={label} onChange={(e) => setLabel(e.target.value)} maxLength={MAX_ALERT_LABEL_LENGTH} />
        </label>
        <button type="submit" disabled={busy} className="align-end">
          Add the destination
        </button>
      </form>
    </>
  );
}
