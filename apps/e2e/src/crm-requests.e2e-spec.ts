import fs from 'node:fs';
import path from 'node:path';
import { Client } from '@hubspot/api-client';
import { aV2Message, aV2Submission, type TestPortal, TestStack, waitFor } from '@ecomm-sync/testing';
import { gatewayClient } from './gateway-client';

/** The rows of docs/hosted-crm-requests.md: the vendor operation of each request the service may send. */
function documentedOperations(): { method: string; path: string; operation: string }[] {
  const doc = fs.readFileSync(path.resolve(__dirname, '..', '..', '..', 'docs', 'hosted-crm-requests.md'), 'utf8');
  return doc
    .split('\n')
    .filter((line) => /^\| (GET|POST|PATCH|PUT|DELETE) \|/.test(line))
    .map((line) => {
      const [method, route, operation] = line
        .split('|')
        .slice(1, 4)
        .map((cell) => cell.trim());
      return { method, path: route, operation };
    });
}

/** Whether a concrete path is an instance of a documented one (`{objectType}` stands for one segment). */
const isInstance = (documented: string, concrete: string) => {
  const want = documented.split('/');
  const got = concrete.split('/');
  return want.length === got.length && want.every((segment, i) => /^\{[A-Za-z]+\}$/.test(segment) || segment === got[i]);
};

/** Resolves `crm.objects.batchApi.upsert` on the SDK's client: the operation exists when it is a function there. */
function sdkOperation(client: Client, operation: string): unknown {
  return operation.split('.').reduce<unknown>((at, key) => (at as Record<string, unknown> | undefined)?.[key], client);
}

/**
 * Issue 25's proof that nothing the service sends exists only because the built-in CRM accepts it:
 * every request a portal's install and sync make, as the CRM received them, is an operation of the
 * vendor's public API (docs/hosted-crm-requests.md).
 */
describe('the requests the service sends to a CRM', () => {
  let stack: TestStack;
  let portal: TestPortal;
  let client: ReturnType<typeof gatewayClient>;

  beforeAll(async () => {
    // The CRM logs each request it answers at level "http" (method, route template, status).
    stack = await TestStack.start({ env: { LOG_LEVEL: 'http' } });
    portal = await stack.createPortal();
    client = gatewayClient(stack, portal);
  });

  afterAll(async () => {
    await stack?.stop();
  });

  it('when the documented operations are read, then each is an operation of the vendor SDK', () => {
    const sdk = new Client({ accessToken: 'unused' });
    const missing = documentedOperations().filter(({ operation }) => typeof sdkOperation(sdk, operation) !== 'function');
    expect(missing).toEqual([]);
  });

  it('when a portal is installed and syncs every object type, then every request the CRM received is a documented vendor operation', async () => {
    await client.putV2(
      aV2Submission('CONTACT', [
        aV2Message({ externalObjectId: 'req-c1', properties: { email: 'req-c1@example.com', firstname: 'Ada' } }),
        aV2Message({ externalObjectId: 'req-c2', properties: { email: 'req-c2@example.com' } }),
      ]),
    );
    await client.putV2(
      aV2Submission('PRODUCT', [
        aV2Message({ externalObjectId: 'req-p1', properties: { name: 'Mug', price: '5' } }),
        aV2Message({ externalObjectId: 'req-p2', properties: { name: 'Cup' } }),
      ]),
    );
    await Promise.all([client.processed('CONTACT', 'req-c1'), client.processed('PRODUCT', 'req-p1'), client.processed('PRODUCT', 'req-p2')]);
    await client.putV2(
      aV2Submission('DEAL', [
        aV2Message({ externalObjectId: 'req-d1', properties: { dealname: 'Order', dealstage: 'checkout_pending' }, associations: { CONTACT: ['req-c1'] } }),
      ]),
    );
    await client.processed('DEAL', 'req-d1');
    await client.putV2(
      aV2Submission('LINE_ITEM', [
        aV2Message({ externalObjectId: 'req-l1', properties: { quantity: '2' }, associations: { DEAL: ['req-d1'], PRODUCT: ['req-p1'] } }),
      ]),
    );
    const lineItem = await client.processed('LINE_ITEM', 'req-l1');
    expect(lineItem.errors).toEqual([]);
    // An update of a linked object, and a delete.
    await client.putV2(aV2Submission('CONTACT', [aV2Message({ externalObjectId: 'req-c1', changedAt: Date.now(), properties: { firstname: 'Augusta' } })]));
    await client.putV2(aV2Submission('PRODUCT', [aV2Message({ externalObjectId: 'req-p2', action: 'DELETE', changedAt: Date.now(), properties: {} })]));
    const received = () =>
      stack
        .logLines('crm')
        .filter((line) => line.message === 'request' && typeof line.route === 'string' && String(line.route).startsWith('/crm/v'))
        .map((line) => ({ method: String(line.method), path: String(line.path), status: Number(line.status) }));
    const sent = (method: string, tail: string) => received().some((request) => request.method === method && request.path.endsWith(tail));
    await waitFor(async () => (sent('POST', '/batch/update') && sent('POST', '/batch/archive') ? true : undefined), {
      timeoutMs: 30_000,
      message: 'the update and the delete to reach the CRM',
    });

    const rows = documentedOperations();
    const requests = received();
    const rowOf = (request: { method: string; path: string }) => rows.find((row) => row.method === request.method && isInstance(row.path, request.path));
    const counts = new Map<string, number>();
    for (const request of requests) {
      const key = rowOf(request) ? `${request.method} ${rowOf(request)!.path}` : `${request.method} ${request.path} (undocumented)`;
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
    console.info(['| Request | Count |', '|---|---|', ...[...counts].map(([key, count]) => `| ${key} | ${count} |`)].join('\n'));

    expect(requests.length).toBeGreaterThan(20);
    expect(requests.filter((request) => !rowOf(request))).toEqual([]);
    // The sync used what the table says it uses: keyed upserts, updates, an archive, v4 associations.
    for (const used of [
      'POST /crm/v3/objects/{objectType}/batch/upsert',
      'POST /crm/v3/objects/{objectType}/batch/update',
      'POST /crm/v3/objects/{objectType}/batch/archive',
      'POST /crm/v4/associations/{fromObjectType}/{toObjectType}/batch/associate/default',
    ])
      expect(counts.get(used)).toBeGreaterThan(0);
    expect(requests.filter((request) => request.status >= 400)).toEqual([]);
  });
});
