import { SYNC_KEY_PROPERTY } from '@ecomm-sync/domain';
import type { CrmExchange } from './crm-exchange';
import { sendingFor } from './crm-exchange-scope';
import { HttpCrmClient } from './http-crm-client';
import { scriptedCrm } from './scripted-crm-fixture';

const TOKEN = 'pat-na1-secret-token-0123456789abcdef';

/** A request log that keeps what it is handed. */
const recordingLog = () => {
  const exchanges: CrmExchange[] = [];
  return { exchanges, requestLog: { record: (exchange: CrmExchange) => void exchanges.push(exchange) } };
};

const tenSecondly = { status: 'error', message: 'You have reached your ten secondly limit.', errorType: 'RATE_LIMIT', correlationId: 'corr-429' };

describe('the CRM requests a client sends are recorded for the request log', () => {
  let crm: Awaited<ReturnType<typeof scriptedCrm>> | undefined;
  afterEach(async () => {
    await crm?.close();
    crm = undefined;
  });

  it('when the CRM answers 429 and then 200, then both attempts are recorded, with status, correlation id, objects and no token', async () => {
    crm = await scriptedCrm([
      { status: 429, headers: { 'retry-after': '0' }, body: tenSecondly },
      { status: 200, headers: { 'x-hubspot-correlation-id': 'corr-200' }, body: { status: 'COMPLETE', results: [{ id: '7', properties: {} }] } },
    ]);
    const { exchanges, requestLog } = recordingLog();
    await crm.client({ token: TOKEN, account: 'builtin:42', requestLog }).batchUpdate('CONTACT', [{ id: 7, properties: { firstname: 'Ada' } }]);

    expect(exchanges.map(({ attempt, status, failed, correlationId }) => ({ attempt, status, failed, correlationId }))).toEqual([
      { attempt: 1, status: 429, failed: true, correlationId: 'corr-429' },
      { attempt: 2, status: 200, failed: false, correlationId: 'corr-200' },
    ]);
    for (const exchange of exchanges) {
      expect(exchange).toMatchObject({
        portalId: 42,
        account: 'builtin:42',
        method: 'POST',
        path: '/crm/v3/objects/contacts/batch/update',
        objects: ['CONTACT:crm:7'],
      });
      expect(exchange.durationMs).toBeGreaterThanOrEqual(0);
      expect(exchange.request.headers.authorization).toBe('[redacted]');
      expect(JSON.parse(exchange.request.body!)).toEqual({ inputs: [{ id: '7', properties: { firstname: 'Ada' }, objectWriteTraceId: '0' }] });
    }
    expect(JSON.stringify(exchanges)).not.toContain(TOKEN);
  });

  it('when the CRM answers 207 to an upsert, then the exchange is recorded as failed, with the refused input in its answer and the objects it carried', async () => {
    const errors = [{ status: 'error', category: 'VALIDATION_ERROR', message: 'Property values were not valid', context: { objectWriteTraceId: ['1'] } }];
    crm = await scriptedCrm([{ status: 207, body: { status: 'COMPLETE', results: [{ id: '10', properties: { [SYNC_KEY_PROPERTY]: 'k-0' } }], errors } }]);
    const { exchanges, requestLog } = recordingLog();
    const client = crm.client({ token: TOKEN, requestLog, portalId: 9 });
    await expect(
      client.batchUpsert('DEAL', SYNC_KEY_PROPERTY, [
        { id: 'k-0', properties: { dealname: 'A' } },
        { id: 'k-1', properties: { dealname: 'B' } },
      ]),
    ).rejects.toMatchObject({ name: 'CrmPartialFailure' });
    expect(exchanges).toHaveLength(1);
    expect(exchanges[0]).toMatchObject({ portalId: 9, status: 207, failed: true, objects: ['DEAL:key:k-0', 'DEAL:key:k-1', 'DEAL:crm:10'] });
    expect(exchanges[0].answer.body).toContain('Property values were not valid');
  });

  it("when requests are sent for a tenant, then each attempt records its application; for another portal's tenant or none, no tenant", async () => {
    const answer = { status: 200, body: { status: 'COMPLETE', results: [{ id: '7', properties: {} }] } };
    crm = await scriptedCrm([{ status: 429, headers: { 'retry-after': '0' }, body: tenSecondly }, answer, answer, answer, answer]);
    const { exchanges, requestLog } = recordingLog();
    const client = crm.client({ token: TOKEN, account: 'builtin:42', requestLog });
    const update = () => client.batchUpdate('CONTACT', [{ id: 7, properties: { firstname: 'Ada' } }]);

    await sendingFor({ portalId: 42, appId: 'app-1' }, update);
    await sendingFor({ portalId: 42, appId: null }, update);
    await sendingFor({ portalId: 43, appId: 'app-1' }, update);
    await update();

    expect(exchanges.map((exchange) => ('appId' in exchange ? exchange.appId : 'none'))).toEqual(['app-1', 'app-1', null, 'none', 'none']);
  });

  it('when two tenants send through one client at once and one is answered 429, then every attempt records the tenant it was sent for', async () => {
    const answer = { status: 200, body: { status: 'COMPLETE', results: [{ id: '7', properties: {} }] } };
    crm = await scriptedCrm([{ status: 429, headers: { 'retry-after': '0' }, body: tenSecondly }, answer, answer]);
    const { exchanges, requestLog } = recordingLog();
    const client = crm.client({ token: TOKEN, account: 'builtin:42', requestLog });
    const update = (firstname: string) => () => client.batchUpdate('CONTACT', [{ id: 7, properties: { firstname } }]);

    await Promise.all([sendingFor({ portalId: 42, appId: 'app-1' }, update('app-1')), sendingFor({ portalId: 42, appId: null }, update('direct'))]);

    expect(exchanges).toHaveLength(3);
    for (const exchange of exchanges) {
      const sent = JSON.parse(exchange.request.body!).inputs[0].properties.firstname;
      expect(exchange.appId).toBe(sent === 'direct' ? null : sent);
    }
  });

  it('when the CRM does not answer, then the attempt is recorded without status, with the reason', async () => {
    const { exchanges, requestLog } = recordingLog();
    const client = new HttpCrmClient({ baseUrl: 'http://127.0.0.1:1', token: TOKEN, maxWaitMs: 0, requestLog });
    await expect(client.batchArchive('PRODUCT', [3])).rejects.toMatchObject({ reason: 'unreachable' });
    expect(exchanges).toEqual([
      expect.objectContaining({
        status: null,
        failed: true,
        error: 'the connection was refused',
        objects: ['PRODUCT:crm:3'],
        answer: expect.objectContaining({ body: null }),
      }),
    ]);
  });

  it('when the request log throws, then the request goes on as if there were none', async () => {
    crm = await scriptedCrm([{ status: 200, body: { status: 'COMPLETE', results: [{ id: '7', properties: {} }] } }]);
    const requestLog = {
      record: () => {
        throw new Error('log broken');
      },
    };
    await expect(crm.client({ requestLog }).batchRead('CONTACT', [7], [])).resolves.toHaveLength(1);
  });

  it('when no request log is given, then nothing is recorded and the request is sent as before', async () => {
    crm = await scriptedCrm([{ status: 200, body: { status: 'COMPLETE', results: [{ id: '7', properties: {} }] } }]);
    await expect(crm.client().batchRead('CONTACT', [7], [])).resolves.toHaveLength(1);
    expect(crm.seen).toHaveLength(1);
  });
});
