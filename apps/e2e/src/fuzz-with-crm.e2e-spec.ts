import axios from 'axios';
import fc from 'fast-check';
import { assertEndpointSurvivesFuzz, fuzzRuns, fuzzSegment, type FuzzTarget, TestStack } from '@ecomm-sync/testing';

const BOUNDED_BODIES = 24;
const v1 = '/extensions/ecomm/v1';
const v2 = '/extensions/ecomm/v2';

/**
 * The gateway's endpoints that call the CRM, fuzzed with the built-in CRM running (issue 17): the
 * gateway's integration fuzz suite runs without a CRM, where these answer 502; here, with gateway
 * and CRM as their own processes, not one 5xx is allowed. A bounded run here; `npm run fuzz` runs
 * it long.
 */
describe('gateway endpoints that reach the CRM, under fuzzed requests with the CRM running', () => {
  let stack: TestStack;
  let portal: { portalId: number; apiKey: string };
  let segment: fc.Arbitrary<string>;

  beforeAll(async () => {
    stack = await TestStack.start({ apps: ['crm', 'gateway'] });
    portal = await stack.createPortal();
    // the admin paths name a portal of their own, re-pointed and disabled by fuzzed bodies
    const other = await axios.post(
      `${stack.gatewayUrl}/admin/v1/portals`,
      { name: 'fuzzed by the admin paths' },
      { headers: { authorization: `Bearer ${stack.adminToken}` } },
    );
    segment = fc.oneof(fuzzSegment, fc.constant(String(other.data.portalId)));
  }, 120_000);

  afterAll(async () => {
    await stack?.stop();
  });

  const targets = (): [string, FuzzTarget][] => {
    const byKey = { query: `hapikey=${portal.apiKey}`, headers: {} };
    const byAdmin = { query: undefined, headers: { authorization: `Bearer ${stack.adminToken}` } };
    const checkError = (body: unknown) => expect(body).toMatchObject({ status: 'error', message: expect.any(String), requestId: expect.any(String) });
    const list: FuzzTarget[] = [
      { method: 'PUT', path: `${v2}/stores`, fields: ['id', 'label', 'adminUri'], ...byKey, allowed5xx: [], checkError },
      { method: 'POST', path: `${v1}/installs`, ...byKey, allowed5xx: [], checkError },
      { method: 'POST', path: '/admin/v1/portals', fields: ['name', 'pipelineLimit', 'portalId'], ...byAdmin, allowed5xx: [], checkError },
      { method: 'PATCH', path: '/admin/v1/portals/:seg', fields: ['active', 'pipelineLimit'], ...byAdmin, allowed5xx: [], checkError },
    ];
    return list.map((target) => [`${target.method} ${target.path}`, target]);
  };

  it.each(['PUT /v2/stores', 'POST /v1/installs', 'POST /admin/v1/portals', 'PATCH /admin/v1/portals/:seg'].map((name, i) => [name, i] as const))(
    'when %s gets fuzzed bodies and paths with the CRM up, then it answers each with the error model and never a 5xx',
    async (_name, i) => {
      const [, target] = targets()[i];
      await assertEndpointSurvivesFuzz(stack.gatewayUrl, target, { bodies: fuzzRuns(BOUNDED_BODIES), segment });
    },
    60_000 + fuzzRuns(BOUNDED_BODIES) * 200,
  );
});
