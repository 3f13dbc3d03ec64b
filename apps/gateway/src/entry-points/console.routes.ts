import { Router, type Request } from 'express';
import { createValidator, ERROR_TYPES, OBJECT_TYPES, type ConsoleSession } from '@ecomm-sync/contracts';
import type { AccountRepository, ConsoleScope } from '@ecomm-sync/data-access';
import { AppError, parseWith, staticBearerAuth } from '@ecomm-sync/runtime';
import { isQueueName, QUEUES, RedriveRefusedError, type QueueName, type QueueStats } from '@ecomm-sync/messaging';
import type { ConsoleReadUseCase } from '../use-cases/console-read.use-case';
import type { ManageImportsUseCase } from '../use-cases/manage-imports.use-case';
import type { RetryErrorsUseCase } from '../use-cases/retry-errors.use-case';
import { grantOf, installedPortalIds, type Authorizer, type Rule } from './authenticate';
import { integerParam, objectIdParam, optionalErrorType, optionalObjectType, textParam } from './query-params';

/** The operator's view of the broker: the CLI's redrive and the queues' depths. */
export interface OperationsPort {
  queues(): Promise<QueueStats[]>;
  redrive(queue: QueueName): Promise<number>;
}

type ConsoleGrant = { session: ConsoleSession; scope: ConsoleScope };

const objectId = { type: 'string', minLength: 1, maxLength: 100, pattern: '^[\\x00-\\x7F]*$' } as const;
const validateRetry = createValidator({
  oneOf: [
    {
      type: 'object',
      required: ['object'],
      additionalProperties: false,
      properties: {
        object: {
          type: 'object',
          required: ['portalId', 'appId', 'storeId', 'objectType', 'externalObjectId'],
          additionalProperties: false,
          properties: {
            portalId: { type: 'integer', minimum: 1 },
            appId: { type: ['string', 'null'], maxLength: 100 },
            storeId: objectId,
            objectType: { enum: OBJECT_TYPES },
            externalObjectId: objectId,
          },
        },
      },
    },
    {
      type: 'object',
      required: ['errorType'],
      additionalProperties: false,
      properties: { errorType: { enum: ERROR_TYPES }, storeId: objectId, objectType: { enum: OBJECT_TYPES } },
    },
  ],
});

/** One answer for a foreign, an uninstalled and an unknown portal: nothing tells which it is. */
export const notInstalled = (appId: string, portalId: number) =>
  AppError.notFound(`Application ${appId} is not installed in portal ${portalId}; pick one of the portals listed under installs`);

const portalInQuery = (req: Request): number | undefined =>
  req.query.portalId === undefined ? undefined : integerParam(req.query, 'portalId', 0, 1, Number.MAX_SAFE_INTEGER);
const appIdInQuery = (req: Request): string | undefined => textParam(req.query, 'appId');

/**
 * A portal's reads narrowed to one owner of its stores: `owner=direct` its own data, `owner=<appId>`
 * an installed application's. A scope that already has one owner (an application's token or key)
 * is kept, so the query cannot widen it.
 */
export const ownedScope = (scope: ConsoleScope, req: Request): ConsoleScope => {
  if (req.query.owner === undefined || req.query.owner === '' || scope.appId !== undefined) return scope;
  const owner = objectIdParam(req.query.owner, 'Query parameter owner');
  return { ...scope, appId: owner === 'direct' ? null : owner };
};

/**
 * Who may read which data in the console: a portal's key or private-app token reads every tenant
 * of the portal; an installed application's OAuth token its own tenant; a developer key with
 * appId its application in the portals that have it installed now. A `portalId` in the query (the
 * page's URL) that is not a customer credential's own answers 403, so a URL cannot open another
 * portal; for an integrator, a portal without the application installed answers 404 with the same
 * words whether that portal exists, uninstalled it or never had it (decision 0035), before any
 * data or CRM of that portal is read.
 */
export const consoleScope =
  (accounts: AccountRepository): Rule<ConsoleGrant> =>
  async (principal, req) => {
    const asked = portalInQuery(req);
    if (principal.kind === 'developer-key') {
      const appId = appIdInQuery(req);
      if (!appId) throw AppError.badRequest('appId is required with a developer API key: add ?appId=<your application id>');
      const application = await accounts.findApplication(appId);
      if (!application || application.developerId !== principal.developerId)
        throw AppError.notFound(`No application ${appId} belongs to this developer account`);
      const session: ConsoleSession = { role: 'integrator', appId };
      if (asked === undefined) return { session, scope: { appId, portalIds: await installedPortalIds(accounts, appId) } };
      if (!(await accounts.findInstall(asked, appId))) throw notInstalled(appId, asked);
      return { session, scope: { appId, portalId: asked } };
    }
    if (asked !== undefined && asked !== principal.portalId)
      throw AppError.forbidden(`This credential belongs to portal ${principal.portalId}, not to portal ${asked}`);
    if (principal.kind === 'access-token')
      return {
        session: { role: 'customer', portalId: principal.portalId, appId: principal.appId },
        scope: { portalId: principal.portalId, appId: principal.appId },
      };
    return { session: { role: 'customer', portalId: principal.portalId }, scope: { portalId: principal.portalId } };
  };

/** The console's own API (decision 0033): only what the existing endpoints do not answer. */
export function consoleRoutes(
  deps: {
    read: ConsoleReadUseCase;
    retry: RetryErrorsUseCase;
    imports: Pick<ManageImportsUseCase, 'list'>;
    operations?: OperationsPort;
    accounts: AccountRepository;
    adminToken: string;
  },
  auth: Authorizer,
): Router {
  const router = Router();
  const base = '/console/api/v1';
  const signedIn = auth.require(consoleScope(deps.accounts));
  const scopeOf = (res: Parameters<typeof grantOf>[0]) => grantOf<ConsoleGrant>(res).scope;

  router.get(`${base}/session`, ...signedIn, (_req, res) => {
    res.json(grantOf<ConsoleGrant>(res).session);
  });

  router.get(`${base}/installs`, ...signedIn, async (_req, res) => {
    res.json(await deps.read.installs(scopeOf(res)));
  });

  router.get(`${base}/overview`, ...signedIn, async (_req, res) => {
    res.json(await deps.read.overview(scopeOf(res)));
  });

  router.get(`${base}/errors`, ...signedIn, async (req, res) => {
    const status = req.query.status;
    if (status !== undefined && status !== 'OPEN' && status !== 'RESOLVED' && status !== 'ALL')
      throw AppError.badRequest(`Query parameter status must be OPEN, RESOLVED or ALL, got "${String(status)}"`);
    res.json(
      await deps.read.errors(ownedScope(scopeOf(res), req), {
        storeId: req.query.storeId === undefined ? undefined : objectIdParam(req.query.storeId, 'Query parameter storeId'),
        objectType: optionalObjectType(req.query),
        errorType: optionalErrorType(req.query),
        status: status === 'ALL' ? undefined : ((status ?? 'OPEN') as 'OPEN' | 'RESOLVED'),
        offset: integerParam(req.query, 'offset', 0, 0, 1_000_000),
        limit: integerParam(req.query, 'limit', 25, 1, 200),
      }),
    );
  });

  router.post(`${base}/errors/retry`, ...signedIn, async (req, res) => {
    const input = parseWith(validateRetry, req.body ?? {});
    // The owner the errors list was narrowed to: a store id alone may name a store of each owner.
    const scope = ownedScope(scopeOf(res), req);
    res.status(202).json('object' in input ? await deps.retry.retryObject(scope, input.object) : await deps.retry.retryType(scope, input));
  });

  router.get(`${base}/imports`, ...signedIn, async (req, res) => {
    const page = { offset: integerParam(req.query, 'offset', 0, 0, 1_000_000), limit: integerParam(req.query, 'limit', 20, 1, 100) };
    res.json(await deps.imports.list(ownedScope(scopeOf(res), req), page));
  });

  // The operator: the admin token, as on the admin API.
  router.use(`${base}/ops`, staticBearerAuth(deps.adminToken, 'The console operations API'));
  router.get(`${base}/ops/session`, (_req, res) => {
    res.json({ role: 'operator' } satisfies ConsoleSession);
  });
  router.get(`${base}/ops/queues`, async (_req, res) => {
    if (!deps.operations) throw AppError.notFound('This gateway has no view of the broker');
    const operations = deps.operations;
    res.json({ results: await atBroker(() => operations.queues()) });
  });
  router.post(`${base}/ops/queues/:queue/redrive`, async (req, res) => {
    const queue = String(req.params.queue);
    if (!isQueueName(queue)) throw AppError.notFound(`No queue ${queue}; the queues are ${Object.keys(QUEUES).join(', ')}`);
    if (!deps.operations) throw AppError.notFound('This gateway has no view of the broker');
    const operations = deps.operations;
    res.json({ queue, moved: await atBroker(() => operations.redrive(queue)) });
  });
  return router;
}

/** Errors of a connection to the broker that a later try may not meet (net and DNS codes). */
const UNREACHED = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN', 'EPIPE']);

/**
 * An operation on the broker, its failures answered as the operator can act on them: a redrive the
 * queues refuse (not declared, or gone meanwhile: what moved is said) is a 409 with that message; a
 * broker that cannot be reached, a 503 to try again. Anything else stays an error of ours (500).
 * The first two were a bare 500 that dropped the message.
 */
async function atBroker<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof RedriveRefusedError) throw AppError.conflict(error.message);
    const code = (error as { code?: unknown } | null)?.code;
    if (typeof code === 'string' && UNREACHED.has(code)) throw AppError.unavailable(`The broker cannot be reached (${code}); try again`);
    // The broker closing the connection (restarting: 320 CONNECTION-FORCED), or the socket closed under the handshake.
    if (code === 320 || (error instanceof Error && /socket closed|connection closed/i.test(error.message)))
      throw AppError.unavailable(`The broker closed the connection (${error instanceof Error ? error.message : String(code)}); try again`);
    throw error;
  }
}
