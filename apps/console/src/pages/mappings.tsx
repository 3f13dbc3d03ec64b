import { useEffect, useState } from 'react';
import type { ConsoleCrmProperties, ConsoleDryRunResult, ConsoleSettingsCheck, ObjectType, V2Settings } from '@ecomm-sync/contracts';
import { sessionApi } from '../api';
import { InstallPicker, useInstalls } from '../components/install-picker';
import { SelectField } from '../components/select-field';
import { ErrorState, Loading } from '../components/states';
import { useLocation } from '../router';
import type { Session } from '../session';
import { keepsData, usePolling } from '../use-polling';
import { DryRunResult } from './dry-run-result';
import { OBJECT_TYPE_CHOICES, OBJECT_TYPES, scopeQuery } from './scope';
import { MappingTable } from './mapping-table';
import { isUnset, message, reapplyAfterSave, SETTINGS, toDraft, toInput, type Draft, type Reapply, type Saving } from './mappings-draft';
import { useReapplyProgress } from './use-reapply-progress';

/** Mappings: the v2 settings as a form, checked as you type, a dry run that saves nothing, and saving with re-apply progress. */
export function MappingsPage({ session, params }: { session: Session; params: Record<string, string> }) {
  const { search } = useLocation();
  const asked = new URLSearchParams(search);
  const [portalId, setPortalId] = useState(asked.get('portalId') ?? '');
  const installs = useInstalls(session);
  const tenantQuery = { ...scopeQuery(session, params), ...(session.role === 'integrator' && portalId ? { portalId } : {}) };
  // The session read with the page's portal first: another portal's URL answers 403 (the settings endpoint knows only the credential's own).
  // No settings yet: the gateway answers them disabled and empty, an empty form, which saving stores.
  const loaded = usePolling(
    () =>
      sessionApi(session, '/console/api/v1/session', { query: scopeQuery(session, params) }).then(() =>
        sessionApi<V2Settings>(session, SETTINGS).then((settings) => ({ settings })),
      ),
    [session.secret, params.portalId],
    3_600_000,
  );
  /** The settings as last read or stored (what a save is compared with). */
  const [stored, setStored] = useState<V2Settings | null>(null);
  const [draft, setDraft] = useState<Draft | null>(null);
  const [check, setCheck] = useState<ConsoleSettingsCheck | null>(null);
  const [crmProperties, setCrmProperties] = useState<Partial<Record<ObjectType, string[]>>>({});
  const [crmNote, setCrmNote] = useState('');
  const [sample, setSample] = useState({
    storeId: asked.get('storeId') ?? 'default',
    objectType: (asked.get('objectType') ?? 'CONTACT') as ObjectType,
    externalObjectId: asked.get('externalObjectId') ?? '',
    typed: '',
  });
  const [dryRun, setDryRun] = useState<{ result?: ConsoleDryRunResult; error?: string }>({});
  const [saving, setSaving] = useState<Saving>({ note: '' });

  useEffect(() => {
    if (!loaded.data || draft) return;
    setDraft(toDraft(loaded.data.settings));
    setStored(loaded.data.settings);
  }, [loaded.data, draft]);

  // The enabling rules, checked by the server (the settings endpoint's own) on each change.
  useEffect(() => {
    if (!draft) return;
    const timer = setTimeout(() => {
      sessionApi<ConsoleSettingsCheck>(session, '/console/api/v1/mappings/validate', { method: 'POST', query: tenantQuery, body: toInput(draft) })
        .then(setCheck)
        .catch((error) => setCheck({ ok: false, problem: message(error) }));
    }, 250);
    return () => clearTimeout(timer);
  }, [draft]);

  useEffect(() => {
    // Another portal picked (or none): the last one's lists and note are not this one's.
    setCrmProperties({});
    setCrmNote('');
    if (session.role === 'integrator' && !portalId) return;
    // Answers that come after another portal was picked are not this one's either.
    let stale = false;
    Promise.all(
      OBJECT_TYPES.map((type) =>
        sessionApi<ConsoleCrmProperties>(session, '/console/api/v1/mappings/crm-properties', { query: { ...tenantQuery, objectType: type } }),
      ),
    )
      .then((all) => {
        if (stale) return;
        setCrmProperties(Object.fromEntries(all.map((answer) => [answer.objectType, answer.results.map((p) => p.name)])));
        setCrmNote('');
      })
      .catch((error) => !stale && setCrmNote(`The CRM's properties could not be read: ${message(error)}`));
    return () => {
      stale = true;
    };
  }, [session.secret, portalId]);

  useReapplyProgress(session, saving, setSaving);

  // A later read that failed leaves the form as it is (a refusal does not: the settings are no longer the viewer's).
  if (loaded.error && !keepsData(loaded.error, draft !== null)) {
    return (
      <>
        <h1>Mappings</h1>
        <ErrorState error={loaded.error} onRetry={loaded.reload} />
      </>
    );
  }
  if (!draft) {
    return (
      <>
        <h1>Mappings</h1>
        <Loading what="the settings" />
      </>
    );
  }

  const runDryRun = async (event: React.FormEvent) => {
    event.preventDefault();
    setDryRun({});
    try {
      let body: object;
      if (sample.typed.trim()) {
        const properties = JSON.parse(sample.typed) as unknown;
        if (!properties || typeof properties !== 'object' || Array.isArray(properties))
          throw new Error('The typed message must be a JSON object of property names and values');
        body = {
          settings: toInput(draft),
          storeId: sample.storeId,
          objectType: sample.objectType,
          message: { externalObjectId: sample.externalObjectId || 'typed-message', properties },
        };
      } else {
        body = { settings: toInput(draft), storeId: sample.storeId, objectType: sample.objectType, externalObjectId: sample.externalObjectId };
      }
      setDryRun({ result: await sessionApi<ConsoleDryRunResult>(session, '/console/api/v1/mappings/dry-run', { method: 'POST', query: tenantQuery, body }) });
    } catch (error) {
      setDryRun({ error: error instanceof SyntaxError ? `The typed message is not JSON: ${error.message}` : message(error) });
    }
  };

  const save = async () => {
    setSaving({ note: 'Saving…' });
    try {
      const before = await sessionApi<Reapply>(session, `${SETTINGS}/reapply-status`).then(
        (job) => job.settingsRev,
        () => 0,
      );
      // What the server compares the save with: the settings as stored now (another tab, or the
      // integration's own PUT, may have changed them since the page read them).
      const current = await sessionApi<V2Settings>(session, SETTINGS);
      const saved = await sessionApi<V2Settings>(session, SETTINGS, { method: 'PUT', body: toInput(draft) });
      setDraft(toDraft(saved));
      setStored(saved);
      const coming = reapplyAfterSave(current, saved);
      if (coming === 'expected') setSaving({ note: 'Saved. Objects whose mapping changed are re-applied from what is stored:', before, since: Date.now() });
      else if (coming === 'disabled')
        setSaving({ note: 'Saved. Sync is disabled: nothing is written to the CRM until it is enabled again, which re-applies everything.' });
      else setSaving({ note: 'Saved. No mapping changed, so nothing is re-applied.' });
    } catch (error) {
      setSaving({ note: `Not saved: ${message(error)}` });
    }
  };
  const reapply = saving.reapply;

  return (
    <>
      <h1>Mappings</h1>
      <form aria-label="Sync settings" onSubmit={(e) => e.preventDefault()}>
        {session.role === 'integrator' ? (
          <p className="filters">
            <InstallPicker installs={installs} what="portal" label="Portal (for its CRM properties and dry runs)" value={portalId} onChange={setPortalId} />
          </p>
        ) : null}
        <p>
          <label className="choice">
            <input type="checkbox" checked={draft.enabled} onChange={(e) => setDraft({ ...draft, enabled: e.target.checked })} />
            Sync enabled (changes are written to the CRM)
          </label>
        </p>
        {stored === null || isUnset(stored) ? <p className="help">Nothing is enabled or mapped yet.</p> : null}
        <p className={check && !check.ok ? 'form-error' : 'help'} role="status" aria-live="polite" data-testid="settings-check">
          {check === null ? 'Checking…' : check.ok ? 'These settings can be saved.' : check.problem}
        </p>
        {crmNote ? <p className="form-error">{crmNote}</p> : null}
        {OBJECT_TYPES.map((type) => (
          <MappingTable
            key={type}
            type={type}
            rows={draft.mappings[type]}
            crmProperties={crmProperties[type] ?? []}
            onChange={(rows) => setDraft({ ...draft, mappings: { ...draft.mappings, [type]: rows } })}
          />
        ))}
      </form>
      <section className="card" aria-labelledby="dry-run">
        <h2 id="dry-run">Dry run</h2>
        <p className="help">
          Maps a stored object, or a message you type, with the settings above as they are now, and shows what would be written and the errors it would get.
          Nothing is saved or sent.
        </p>
        <form className="filters" aria-label="Dry run" onSubmit={(e) => void runDryRun(e)}>
          <label>
            Store
            <input value={sample.storeId} onChange={(e) => setSample({ ...sample, storeId: e.target.value })} />
          </label>
          <SelectField
            label="Object type"
            value={sample.objectType}
            onChange={(objectType) => setSample({ ...sample, objectType: objectType as ObjectType })}
            choices={OBJECT_TYPE_CHOICES}
          />
          <label>
            External id
            <input value={sample.externalObjectId} onChange={(e) => setSample({ ...sample, externalObjectId: e.target.value })} />
          </label>
          <label className="wide">
            Or a typed message (JSON properties; leave empty to use the stored object)
            <textarea
              rows={3}
              value={sample.typed}
              onChange={(e) => setSample({ ...sample, typed: e.target.value })}
              placeholder='{"email": "ada@example.com"}'
            />
          </label>
          <button type="submit" className="align-end">
            Dry run
          </button>
        </form>
        {dryRun.error ? (
          <p className="form-error" role="alert">
            Dry run failed: {dryRun.error}
          </p>
        ) : null}
        {dryRun.result ? <DryRunResult result={dryRun.result} /> : null}
      </section>
      <section className="card" aria-labelledby="save-settings">
        <h2 id="save-settings">Save</h2>
        <button type="button" onClick={() => void save()} disabled={check !== null && !check.ok}>
          Save settings
        </button>
        <p className="notice" role="status" aria-live="polite" data-testid="reapply-progress">
          {saving.note}
          {reapply
            ? ` ${reapply.status === 'running' ? 'running' : reapply.status}, ${reapply.objectsProcessed} object${reapply.objectsProcessed === 1 ? '' : 's'} processed (${reapply.objectTypes.join(', ') || 'no object type changed'}).`
            : saving.before !== undefined
              ? ' waiting for it to start…'
              : ''}
        </p>
      </section>
    </>
  );
}
