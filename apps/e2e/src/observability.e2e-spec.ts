import fs from 'node:fs';
import path from 'node:path';
import axios, { type AxiosInstance } from 'axios';
import { type AppName, aV1Contact, startWebhookReceiver, type TestPortal, TestStack, waitFor, type WebhookReceiver } from '@ecomm-sync/testing';
import { gatewayClient } from './gateway-client';
import { scrape, total, type Sample } from './metrics-scrape';

const WORKERS = ['mapper', 'applier', 'import-coordinator', 'webhook-dispatcher'] as const;
const QUEUES: Record<(typeof WORKERS)[number], string[]> = {
  mapper: ['mapper.sync-batches', 'mapper.settings-work'],
  applier: ['applier.mapped-changes'],
  'import-coordinator': ['import-coordinator.events'],
  'webhook-dispatcher': ['webhook-dispatcher.requests'],
};
const ALL: AppName[] = ['gateway', 'crm', ...WORKERS];
type Scrapes = Record<AppName, Sample[]>;

/**
 * Issue 15, proofs of items 1 and 2 over the running stack: the /metrics of every service move by
 * exactly what was sent, and one trace id leads from the gateway's log line to the CRM request the
 * applier made.
 */
describe('metrics and traces over the running stack', () => {
  let stack: TestStack;
  let portal: TestPortal;
  let client: ReturnType<typeof gatewayClient>;

  beforeAll(async () => {
    // Level http: the built-in CRM logs each request with the traceparent it received.
    stack = await TestStack.start({ env: { LOG_LEVEL: 'http', WEBHOOK_MAX_ATTEMPTS: '3', WEBHOOK_BACKOFF_BASE_MS: '100' } });
    portal = await stack.createPortal();
    client = gatewayClient(stack, portal);
  });

  afterAll(async () => {
    await stack?.stop();
  });

  const urlOf = (app: AppName) => stack.metricsUrl(app);
  const scrapeAll = async (): Promise<Scrapes> => Object.fromEntries(await Promise.all(ALL.map(async (app) => [app, await scrape(urlOf(app))]))) as Scrapes;
  const delta = (before: Scrapes, after: Scrapes, app: AppName, name: string, labels: Record<string, string> = {}) =>
    total(after[app], name, labels) - total(before[app], name, labels);
  const crmRequestsServed = (samples: Sample[]) =>
    samples.filter((s) => s.name === 'http_request_duration_seconds_count' && s.labels.route.startsWith('/crm/v')).reduce((sum, s) => sum + s.value, 0);

  /** Every delivered message is settled and every consumed queue is empty, as two scrapes in a row agree. */
  const quiet = () => {
    let previous = '';
    return waitFor(
      async () => {
        const scrapes = await scrapeAll();
        const settled = WORKERS.every((app) =>
          QUEUES[app].every((queue) => {
            const consumed = total(scrapes[app], 'ecomm_messages_consumed_total', { queue });
            const settledCount = ['acknowledged', 'retried', 'dead_lettered'].reduce(
              (sum, how) => sum + total(scrapes[app], `ecomm_messages_${how}_total`, { queue }),
              0,
            );
            return consumed === settledCount && total(scrapes[app], 'ecomm_queue_messages', { queue }) === 0;
          }),
        );
        const fingerprint = JSON.stringify(WORKERS.map((app) => total(scrapes[app], 'ecomm_messages_consumed_total')));
        const steady = settled && fingerprint === previous;
        previous = fingerprint;
        return steady ? scrapes : undefined;
      },
      { timeoutMs: 30_000, intervalMs: 300, message: 'every message settled and every queue empty' },
    );
  };

  it('when a sync batch is applied, then every service shows its default metrics and the counters moved by exactly what was sent', async () => {
    const before = await quiet();
    const contacts = [1, 2, 3].map((n) =>
      aV1Contact({ integratorObjectId: `metrics-c${n}`, propertyNameToValues: { email: `metrics-${n}@example.com`, firstname: `M${n}` } }),
    );
    await client.putV1('CONTACT', contacts);
    for (const contact of contacts) await client.processed('CONTACT', contact.integratorObjectId);
    const after = await quiet();

    for (const app of ALL) expect({ app, cpu: total(after[app], 'process_cpu_user_seconds_total') > 0 }).toEqual({ app, cpu: true });
    expect(
      delta(before, after, 'gateway', 'http_request_duration_seconds_count', {
        method: 'PUT',
        route: '/extensions/ecomm/v1/sync-messages/:objectType',
        status_code: '204',
      }),
    ).toBe(1);
    // One accepted request is one message to the mapper, one mapped-changes message to the applier.
    for (const [app, queue] of [
      ['mapper', 'mapper.sync-batches'],
      ['applier', 'applier.mapped-changes'],
    ] as const) {
      expect({ app, consumed: delta(before, after, app, 'ecomm_messages_consumed_total', { queue }) }).toEqual({ app, consumed: 1 });
      expect({ app, acknowledged: delta(before, after, app, 'ecomm_messages_acknowledged_total', { queue }) }).toEqual({ app, acknowledged: 1 });
      expect({ app, timed: delta(before, after, app, 'ecomm_message_processing_seconds_count', { queue }) }).toEqual({ app, timed: 1 });
      expect({
        app,
        failed: delta(before, after, app, 'ecomm_messages_retried_total') + delta(before, after, app, 'ecomm_messages_dead_lettered_total'),
      }).toEqual({ app, failed: 0 });
    }
    expect(delta(before, after, 'applier', 'ecomm_sync_lag_seconds_count', { object_type: 'CONTACT' })).toBe(1);
    // Every CRM request the applier counted, the CRM served; none was refused.
    const sent = delta(before, after, 'applier', 'ecomm_crm_requests_total');
    expect(sent).toBeGreaterThan(0);
    expect(delta(before, after, 'applier', 'ecomm_crm_requests_total', { outcome: 'ok' })).toBe(sent);
    expect(crmRequestsServed(after.crm) - crmRequestsServed(before.crm)).toBe(sent);
    expect(delta(before, after, 'crm', 'http_request_duration_seconds_count', { route: '/crm/v3/objects/:type/batch/upsert', status_code: '200' })).toBe(1);
    // Depths are there, read from the broker, for the queues each worker consumes.
    for (const app of WORKERS) {
      for (const queue of QUEUES[app]) {
        expect(after[app].find((s) => s.name === 'ecomm_queue_messages' && s.labels.queue === queue)?.value).toBe(0);
        expect(after[app].find((s) => s.name === 'ecomm_dead_letter_queue_messages' && s.labels.queue === queue)?.value).toBe(0);
      }
    }
    // Nothing reached the import services.
    for (const app of ['import-coordinator', 'webhook-dispatcher'] as const)
      expect({ app, consumed: delta(before, after, app, 'ecomm_messages_consumed_total') }).toEqual({ app, consumed: 0 });
  });

  it('when /metrics is asked on the API port of the gateway or the CRM, then it is not there; their internal port serves it, with no address in any label', async () => {
    for (const url of [stack.gatewayUrl, stack.crmUrl]) {
      const response = await axios.get(`${url}/metrics`, { validateStatus: () => true });
      expect({ url, status: response.status }).toEqual({ url, status: 404 });
    }
    const scrapes = await scrapeAll();
    for (const app of ALL) {
      expect({ app, served: scrapes[app].length > 0 }).toEqual({ app, served: true });
      const addresses = scrapes[app].flatMap((sample) => Object.values(sample.labels)).filter((value) => /https?:\/\//.test(value));
      expect({ app, addresses }).toEqual({ app, addresses: [] });
    }
  });

  it('when the alert rules, the dashboard and the scaling triggers name a metric of ours, then a service of the stack exports it', async () => {
    const deploy = path.resolve(__dirname, '..', '..', '..', 'deploy');
    const files = ['monitoring/alert-rules.yaml', 'monitoring/grafana-dashboard.json', 'k8s/scaling.yaml'];
    const named = new Set(
      files.flatMap((file) =>
        [...fs.readFileSync(path.join(deploy, file), 'utf8').matchAll(/\becomm_[a-z0-9_]+/g)].map(([name]) => name.replace(/_(bucket|sum|count)$/, '')),
      ),
    );
    const exported = new Set<string>();
    for (const app of ALL) {
      const text = (await axios.get<string>(`${urlOf(app)}/metrics`, { responseType: 'text' })).data;
      for (const [, name] of text.matchAll(/^# TYPE (\S+) /gm)) exported.add(name);
    }
    expect(named.size).toBeGreaterThan(5);
    expect([...named].filter((name) => !exported.has(name))).toEqual([]);
  });

  it('when an import starts, then the import coordinator and the webhook dispatcher count exactly its messages', async () => {
    const admin: AxiosInstance = axios.create({ baseURL: `${stack.gatewayUrl}/admin/v1`, headers: { authorization: `Bearer ${stack.adminToken}` } });
    const developer = (await admin.post('/developers', { name: 'Metrics Co' })).data;
    const application = (await admin.post('/apps', { developerId: developer.developerId, name: 'Metrics' })).data;
    const tokens = (await admin.post('/installs', { portalId: portal.portalId, appId: application.appId })).data;
    const receiver: WebhookReceiver = await startWebhookReceiver(
      () => application.clientSecret,
      (body) => {
        const { settingsToImport } = body as { settingsToImport: { settingsId: number }[] };
        return { status: 200, json: { importCounts: settingsToImport.map(({ settingsId }) => ({ settingsId, count: 1 })) } };
      },
    );
    try {
      const same = (name: string) => ({ externalPropertyName: name, crmPropertyName: name });
      const settings = await axios.put(
        `${stack.gatewayUrl}/extensions/ecomm/v2/settings`,
        {
          enabled: true,
          webhookUri: `${receiver.url}/import`,
          mappings: {
            CONTACT: { properties: [same('email'), same('firstname')] },
            PRODUCT: { properties: [same('name'), { ...same('price'), dataType: 'NUMBER' }] },
            DEAL: { properties: [same('dealname'), same('dealstage')] },
            LINE_ITEM: { properties: [{ ...same('quantity'), dataType: 'NUMBER' }, same('hs_assoc__deal_id')] },
          },
        },
        { params: { hapikey: developer.apiKey, appId: application.appId }, validateStatus: () => true },
      );
      expect({ status: settings.status, body: settings.data }).toEqual({ status: 200, body: expect.anything() });
      expect((await gatewayClient(stack, { accessToken: tokens.accessToken }).http.post('/v1/installs')).status).toBe(204);
      const before = await quiet();

      const started = await axios.post(`${stack.gatewayUrl}/extensions/ecomm/v1/imports`, undefined, {
        params: { hapikey: portal.apiKey, appId: application.appId },
      });
      expect(started.status).toBe(201);
      await waitFor(() => receiver.received.length > 0, { message: 'the import webhook' });
      const after = await quiet();

      expect(
        delta(before, after, 'gateway', 'http_request_duration_seconds_count', { method: 'POST', route: '/extensions/ecomm/v1/imports', status_code: '201' }),
      ).toBe(1);
      // The import's start and the webhook's answer reach the coordinator; the webhook request reaches the dispatcher.
      expect(delta(before, after, 'import-coordinator', 'ecomm_messages_acknowledged_total', { queue: 'import-coordinator.events' })).toBe(2);
      expect(delta(before, after, 'webhook-dispatcher', 'ecomm_messages_acknowledged_total', { queue: 'webhook-dispatcher.requests' })).toBe(1);
      expect(receiver.received).toHaveLength(1);
    } finally {
      await receiver.close();
    }
  });

  it('when a sync batch is applied, then the trace id of the gateway log line is on the CRM request the applier made', async () => {
    const response = await client.putV1('CONTACT', [
      aV1Contact({ integratorObjectId: 'traced-c1', propertyNameToValues: { email: 'traced@example.com', firstname: 'Traced' } }),
    ]);
    const requestId = response.headers['x-request-id'];
    await client.processed('CONTACT', 'traced-c1');

    const accepted = stack.logLines('gateway').find((line) => line.message === 'sync batch accepted' && line.requestId === requestId);
    expect(accepted).toEqual(expect.objectContaining({ traceId: expect.stringMatching(/^[0-9a-f]{32}$/), spanId: expect.stringMatching(/^[0-9a-f]{16}$/) }));
    const traceId = accepted!.traceId as string;
    const crmWrites = await waitFor(
      () => {
        const lines = stack.logLines('crm').filter((line) => line.message === 'request' && String(line.traceparent).includes(traceId));
        return lines.some((line) => line.route === '/crm/v3/objects/:type/batch/upsert') ? lines : undefined;
      },
      { message: `the CRM to log a write carrying trace ${traceId}` },
    );
    // The applier sent its own span as the parent; the CRM continued the same trace.
    for (const line of crmWrites) {
      expect(line.traceparent).toMatch(new RegExp(`^00-${traceId}-[0-9a-f]{16}-0[01]$`));
      expect(line.traceparent).not.toContain(accepted!.spanId as string);
      expect(line.traceId).toBe(traceId);
    }
    // No other trace reached the CRM for this object's write.
    const otherWrites = stack
      .logLines('crm')
      .filter(
        (line) =>
          line.message === 'request' &&
          line.route === '/crm/v3/objects/:type/batch/upsert' &&
          !String(line.traceparent).includes(traceId) &&
          line.traceparent === null,
      );
    expect(otherWrites).toEqual([]);
  });
});
