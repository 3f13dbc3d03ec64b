import { useState, type FormEvent } from 'react';
import type { ConsoleSession } from '@ecomm-sync/contracts';
import { api, ApiError } from '../api';
import type { CredentialKind, Session } from '../session';

type Role = ConsoleSession['role'];

const HELP: Record<Role, string> = {
  customer: 'Your portal API key (hapikey), or the OAuth access token of an application installed in your portal.',
  integrator: 'Your developer API key and the id of your application.',
  operator: 'The admin token of this installation (ADMIN_TOKEN).',
};

/** Sign-in: the credential is checked against the service, then kept for this tab only. */
export function SignInPage({ onSignedIn }: { onSignedIn: (session: Session) => void }) {
  const [role, setRole] = useState<Role>('customer');
  const [customerKind, setCustomerKind] = useState<'portal-key' | 'oauth-token'>('portal-key');
  const [secret, setSecret] = useState('');
  const [appId, setAppId] = useState('');
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);

  /** Shows every failure as the form's error, so the form's handler need not await it. */
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setError(undefined);
    const kind: CredentialKind = role === 'operator' ? 'admin-token' : role === 'integrator' ? 'developer-key' : customerKind;
    const credential = { kind, secret: secret.trim(), appId: role === 'integrator' ? appId.trim() : undefined };
    if (!credential.secret) return setError('Enter your credential.');
    if (role === 'integrator' && !credential.appId) return setError('Enter the id of your application.');
    setBusy(true);
    try {
      const session = await api<ConsoleSession>(credential, role === 'operator' ? '/console/api/v1/ops/session' : '/console/api/v1/session');
      if (session.role !== role)
        throw new ApiError(
          403,
          `This credential signs in as ${session.role === 'customer' ? 'a customer' : `an ${session.role}`}, not as ${role === 'customer' ? 'a customer' : `an ${role}`}.`,
        );
      onSignedIn({ ...session, ...credential, appId: session.appId });
    } catch (caught) {
      setError(caught instanceof ApiError ? caught.message : String(caught));
    } finally {
      setBusy(false);
    }
  };

  return (
    <main id="main" className="sign-in">
      <h1>Sign in to the ecomm-sync console</h1>
      <form onSubmit={(event) => void submit(event)} noValidate aria-describedby={error ? 'sign-in-error' : undefined}>
        <fieldset>
          <legend>I am</legend>
          {(['customer', 'integrator', 'operator'] as Role[]).map((value) => (
            <label key={value} className="choice">
              <input type="radio" name="role" value={value} checked={role === value} onChange={() => setRole(value)} />
              {value === 'customer' ? 'A customer (portal)' : value === 'integrator' ? 'An integrator (application)' : 'An operator'}
            </label>
          ))}
        </fieldset>
        {role === 'customer' ? (
          <fieldset>
            <legend>Credential</legend>
            <label className="choice">
              <input
                type="radio"
                name="customerKind"
                value="portal-key"
                checked={customerKind === 'portal-key'}
                onChange={() => setCustomerKind('portal-key')}
              />
              Portal API key (hapikey)
            </label>
            <label className="choice">
              <input
                type="radio"
                name="customerKind"
                value="oauth-token"
                checked={customerKind === 'oauth-token'}
                onChange={() => setCustomerKind('oauth-token')}
              />
              OAuth access token of an installed application
            </label>
          </fieldset>
        ) : null}
        <p className="help" id="secret-help">
          {HELP[role]} It is kept in this browser tab only and is never shown.
        </p>
        <label htmlFor="secret">
          {role === 'operator'
            ? 'Admin token'
            : role === 'integrator'
              ? 'Developer API key'
              : customerKind === 'portal-key'
                ? 'Portal API key'
                : 'OAuth access token'}
        </label>
        <input
          id="secret"
          name="secret"
          type="password"
          autoComplete="off"
          value={secret}
          onChange={(e) => setSecret(e.target.value)}
          aria-describedby="secret-help"
          required
        />
        {role === 'integrator' ? (
          <>
            <label htmlFor="appId">Application id</label>
            <input id="appId" name="appId" value={appId} onChange={(e) => setAppId(e.target.value)} required />
          </>
        ) : null}
        {error ? (
          <p id="sign-in-error" className="form-error" role="alert">
            {error}
          </p>
        ) : null}
        <button type="submit" disabled={busy}>
          {busy ? 'Signing in…' : 'Sign in'}
        </button>
      </form>
    </main>
  );
}
