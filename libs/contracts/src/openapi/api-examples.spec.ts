import { readFileSync } from 'node:fs';
import path from 'node:path';
import { openApiBodyChecker } from './document-validator';
import { gatewayOpenApiDocument } from './gateway-document';

/**
 * docs/api.md's examples are fenced blocks whose info string says what they are:
 * ```json request PUT /extensions/ecomm/v2/stores      (a request body)
 * ```json response 200 GET /extensions/ecomm/v2/stores (an answer body)
 * Each is validated against the OpenAPI document's schema of that operation.
 */
interface Example {
  kind: 'request' | 'response';
  status?: string;
  method: string;
  path: string;
  body: unknown;
  line: number;
}

const API_MD = path.resolve(__dirname, '../../../../docs/api.md');

function examplesOf(markdown: string): Example[] {
  const examples: Example[] = [];
  const fence = /^```json (request|response)(?: (\d{3}))? ([A-Z]+) (\S+)\n([\s\S]*?)^```$/gm;
  for (const match of markdown.matchAll(fence)) {
    const [, kind, status, method, url, text] = match;
    examples.push({
      kind: kind as Example['kind'],
      status,
      method,
      path: url.split('?')[0],
      body: JSON.parse(text),
      line: markdown.slice(0, match.index).split('\n').length,
    });
  }
  return examples;
}

describe('docs/api.md examples against the OpenAPI document', () => {
  const check = openApiBodyChecker(gatewayOpenApiDocument());
  const examples = examplesOf(readFileSync(API_MD, 'utf8'));

  it('when docs/api.md is read, then it has request and response examples', () => {
    expect(examples.filter((example) => example.kind === 'request').length).toBeGreaterThanOrEqual(5);
    expect(examples.filter((example) => example.kind === 'response').length).toBeGreaterThanOrEqual(5);
  });

  it.each(examples.map((example) => [`${example.kind} ${example.status ?? ''} ${example.method} ${example.path} (line ${example.line})`, example] as const))(
    'when the example %s is validated, then it fits the document',
    (_name, example) => {
      expect(check(example)).toEqual([]);
    },
  );

  it.each([
    [
      'a v2 message without its action',
      {
        kind: 'request',
        method: 'PUT',
        path: '/extensions/ecomm/v2/sync/messages',
        body: { storeId: 'default', objectType: 'DEAL', messages: [{ externalObjectId: 'd-1' }] },
      },
      /action/,
    ],
    ['a store answer without its label', { kind: 'response', status: '200', method: 'PUT', path: '/extensions/ecomm/v2/stores', body: { id: 'eu' } }, /label/],
    [
      'an error body without its request id',
      { kind: 'response', status: '401', method: 'GET', path: '/extensions/ecomm/v2/stores', body: { status: 'error', message: 'x' } },
      /requestId/,
    ],
    ['an operation the document does not have', { kind: 'request', method: 'PUT', path: '/extensions/ecomm/v3/sync', body: {} }, /not an operation/],
  ] as const)('when an example has %s, then the check names the problem', (_name, example, problem) => {
    expect(check(example).join('\n')).toMatch(problem);
  });
});
