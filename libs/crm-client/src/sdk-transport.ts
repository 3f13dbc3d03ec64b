import { answerTextOf } from './crm-json';
import type { CrmTransport } from './crm-transport';

/** What the SDK hands its HTTP layer: one request, built from its typed models. */
interface SdkRequest {
  getUrl(): string;
  getHttpMethod(): string;
  getBody(): unknown;
}

type SdkResponseBody = { text(): Promise<string>; binary(): Promise<Buffer> };

/**
 * The parts of one generated module of the SDK (`@hubspot/api-client/lib/codegen/crm/…`) that
 * configure its APIs; every module exports the same ones, each with its own classes.
 */
interface SdkModule<Configuration, Request extends SdkRequest, Response, Server, Library> {
  createConfiguration(parameters: { baseServer: Server; httpApi: Library }): Configuration;
  ServerConfiguration: new (url: string, variables: Record<string, never>) => Server;
  wrapHttpLibrary(library: { send(request: Request): Promise<Response> }): Library;
  ResponseContext: new (status: number, headers: Record<string, string>, body: SdkResponseBody) => Response;
}

/**
 * The configuration of one SDK module whose HTTP layer is ours (decision 0042): the SDK builds each
 * request from its typed models and reads each answer into them; the request goes through
 * CrmTransport, so the account's shared budget, permits, retries, traces and metrics hold around
 * every call. The SDK's own limiter and retries are never in the path (its Client is not used).
 *
 * The SDK names the full URL (its server is the connection's base URL); the transport gets the
 * path under that base, so errors and traces do not carry the CRM's host.
 */
export function sdkConfiguration<Configuration, Request extends SdkRequest, Response, Server, Library>(
  module: SdkModule<Configuration, Request, Response, Server, Library>,
  transport: CrmTransport,
  baseUrl: string,
): Configuration {
  const base = baseUrl.replace(/\/+$/, '');
  const httpApi = module.wrapHttpLibrary({
    async send(request: Request): Promise<Response> {
      const url = request.getUrl();
      const body = request.getBody();
      const { status, data, headers } = await transport.send<unknown>({
        method: request.getHttpMethod(),
        url: url.startsWith(base) ? url.slice(base.length) : url,
        ...(body === undefined ? {} : { data: body }),
      });
      // The transport reads answers as JSON (its budget and errors need them); the SDK reads text: the
      // text the answer was parsed from. A 204 reads as an empty object: a generated method that does
      // not list it parses the body.
      const empty = data === undefined || data === '';
      const text = empty ? (status === 204 ? '{}' : '') : typeof data === 'string' ? data : (answerTextOf(data) ?? JSON.stringify(data));
      return new module.ResponseContext(
        status,
        { ...headers, 'content-type': 'application/json' },
        { text: async () => text, binary: async () => Buffer.from(text) },
      );
    },
  });
  return module.createConfiguration({ baseServer: new module.ServerConfiguration(base, {}), httpApi });
}
