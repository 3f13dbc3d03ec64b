import { gatewayOpenApiDocument } from './gateway-document';

describe('the gateway OpenAPI document', () => {
  const document = gatewayOpenApiDocument() as unknown as {
    paths: Record<string, Record<string, { responses: Record<string, { $ref?: string; description?: string; content?: unknown }> }>>;
    components: { responses: Record<string, { description: string }> };
  };

  it.each([
    ['/extensions/ecomm/v1/sync-messages/{objectType}', 'put'],
    ['/extensions/ecomm/v2/sync/messages', 'put'],
  ])('when a sync operation (%s) can be refused for its portal’s intake pace, then its 429 says so, with the error body', (path, method) => {
    const refused = document.paths[path][method].responses['429'];
    expect(refused.description).toMatch(/intake pace.*INTAKE_MAX_WAIT_MS.*nothing of it was accepted/);
    expect(refused.content).toEqual({ 'application/json': { schema: { $ref: '#/components/schemas/Error' } } });
  });

  it('when another authenticated operation answers 429, then it is the shared answer, which speaks of the credential only', () => {
    expect(document.paths['/extensions/ecomm/v1/settings'].get.responses['429']).toEqual({ $ref: '#/components/responses/Error429' });
    expect(document.components.responses.Error429.description).toBe('Too many requests with this credential; Retry-After says when to go on');
  });

  it("when a body's union is told apart by a discriminator for ajv, then the document keeps its branches and no discriminator", () => {
    const text = JSON.stringify(gatewayOpenApiDocument());
    expect(text).not.toContain('"discriminator"');
    expect(text).toContain('"const":"sync-lag"');
  });
});
