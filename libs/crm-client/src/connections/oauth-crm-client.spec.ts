import type { CrmObject, CrmPort } from '../crm-port';
import { CrmPartialFailure } from '../crm-errors';
import type { OAuthAccessTokens } from './oauth-access-tokens';
import { OAuthCrmClient } from './oauth-crm-client';

/** Tokens that never expire: the chunking is what these cases are about. */
const tokens = { get: async () => 't', renew: async () => 't' } as unknown as OAuthAccessTokens;

/**
 * A port that answers each upsert chunk with its inputs as objects (id = 1000 + the input's place in
 * the whole call, read from its key "k-N"), holding the first chunk until the others came; an input
 * whose place is in `refused` is answered in a 207 (the index the HTTP client gives: within the chunk).
 */
function recordingPort(expected: number, refused: number[] = []) {
  let inFlight = 0;
  let mostInFlight = 0;
  let calls = 0;
  let releaseFirst: () => void = () => undefined;
  const firstHeld = new Promise<void>((resolve) => (releaseFirst = resolve));
  const answer = async (inputs: { id: string | number }[]): Promise<CrmObject[]> => {
    inFlight++;
    calls++;
    mostInFlight = Math.max(mostInFlight, inFlight);
    const places = inputs.map((input) => Number(String(input.id).replace('k-', '')));
    if (calls === expected) releaseFirst();
    if (places[0] === 0) await Promise.race([firstHeld, new Promise((resolve) => setTimeout(resolve, 300))]);
    else await new Promise((resolve) => setImmediate(resolve));
    inFlight--;
    const results = places.filter((place) => !refused.includes(place)).map((place) => ({ id: 1000 + place, properties: {} }));
    const failures = places.flatMap((place, index) => (refused.includes(place) ? [{ index, message: `refused ${place}` }] : []));
    if (failures.length > 0) throw new CrmPartialFailure('CRM batch write: refused', results, failures);
    return results;
  };
  const port = { batchUpsert: (_type: string, _idProperty: string, inputs: { id: string }[]) => answer(inputs) } as unknown as CrmPort;
  return { port, stats: () => ({ calls, mostInFlight }) };
}

const inputs = (n: number) => Array.from({ length: n }, (_, i) => ({ id: `k-${i}`, properties: {} }));

describe('OAuthCrmClient batches', () => {
  it("when a call holds more than 100 inputs, then its chunks go side by side, at most chunksAtOnce, and the objects come back in the chunks' order", async () => {
    const crm = recordingPort(5);
    const results = await new OAuthCrmClient(tokens, () => crm.port, 3).batchUpsert('CONTACT', 'email', inputs(450));
    expect(crm.stats().calls).toBe(5);
    expect(crm.stats().mostInFlight).toBeGreaterThanOrEqual(2);
    expect(crm.stats().mostInFlight).toBeLessThanOrEqual(3);
    expect(results.map((result) => result.id)).toEqual(Array.from({ length: 450 }, (_, i) => 1000 + i));
  });

  it('when chunks answer 207, then the failure names each refused input by its place in the whole call, with the objects of every chunk', async () => {
    const crm = recordingPort(3, [7, 250]);
    const error = await new OAuthCrmClient(tokens, () => crm.port).batchUpsert('CONTACT', 'email', inputs(300)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CrmPartialFailure);
    expect((error as CrmPartialFailure).failures).toEqual([
      { index: 7, message: 'refused 7' },
      { index: 250, message: 'refused 250' },
    ]);
    expect((error as CrmPartialFailure).results).toHaveLength(298);
  });

  it('when a call of 100 or fewer names a record twice and both of its chunks are partly refused, then the message counts the refusals of the whole call, as the HTTP client says it', async () => {
    const crm = recordingPort(2, [2, 3]);
    const twice = ['k-1', 'k-2', 'k-1', 'k-3'].map((id) => ({ id, properties: {} }));
    const error = await new OAuthCrmClient(tokens, () => crm.port).batchUpsert('CONTACT', 'email', twice).catch((e: unknown) => e);
    expect(crm.stats().calls).toBe(2);
    expect(error).toBeInstanceOf(CrmPartialFailure);
    expect((error as CrmPartialFailure).message).toBe('CRM batch write: 2 of 4 inputs refused (first: refused 2)');
    expect((error as CrmPartialFailure).failures).toEqual([
      { index: 1, message: 'refused 2' },
      { index: 3, message: 'refused 3' },
    ]);
  });

  it('when a call of 100 or fewer names a record twice and one of its chunks is partly refused, then the message counts the whole call, not the chunk', async () => {
    const crm = recordingPort(2, [3]);
    const twice = ['k-1', 'k-2', 'k-1', 'k-3'].map((id) => ({ id, properties: {} }));
    const error = await new OAuthCrmClient(tokens, () => crm.port).batchUpsert('CONTACT', 'email', twice).catch((e: unknown) => e);
    expect((error as CrmPartialFailure).message).toBe('CRM batch write: 1 of 4 inputs refused (first: refused 3)');
    expect((error as CrmPartialFailure).results).toHaveLength(3);
  });

  it('when one record comes twice in a call, then its chunks go one at a time', async () => {
    const crm = recordingPort(3);
    const twice = inputs(300).map((input, i) => (i === 250 ? { ...input, id: 'k-0' } : input));
    await new OAuthCrmClient(tokens, () => crm.port, 4).batchUpsert('CONTACT', 'email', twice);
    expect(crm.stats()).toEqual({ calls: 3, mostInFlight: 1 });
  });
});
