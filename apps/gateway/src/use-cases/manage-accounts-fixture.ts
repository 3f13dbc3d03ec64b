import { CrmConnections } from '@ecomm-sync/crm-client';
import { SecretBox } from '@ecomm-sync/data-access';
import { aPortal, asRepositories, FakeAccountRepository, FakeCredentialRepository, FakePortalRepository, recordingLogger } from '@ecomm-sync/testing';
import { ManageAccountsUseCase, type AccountsOptions } from './manage-accounts.use-case';
import type { WindowCounter } from './oauth-refresh-limit';

/** Counts as the gateway's fixed windows do, in one window that does not end; `counted` lists the keys in order. */
export const countingWindows = (): WindowCounter & { counted: string[] } => {
  const counted: string[] = [];
  return {
    counted,
    count: async (key) => {
      counted.push(key);
      return { hits: counted.filter((other) => other === key).length, retryAfterSeconds: 7 };
    },
  };
};

export const NOW = 1_750_000_000_000;
export const TTL_SECONDS = 1_800;
export const box = new SecretBox('manage-accounts-spec-secrets-key');

/**
 * What the specs of ManageAccountsUseCase (manage-accounts*.spec.ts) share, made again before each
 * test: fakes of the repositories, one portal, and the use case over them with rotation on. The
 * fields a test changes or reads after the use case changed them are here: `now` (the clock the use
 * case reads; a test moves it) and what every replica was told (`accessChanged`, `tokensDeleted`,
 * `enabled`). Portals are made by provisionPortal, which calls the built-in CRM's admin API: its
 * integration spec covers it.
 */
export interface AccountsWorld {
  portals: FakePortalRepository;
  accounts: FakeAccountRepository;
  credentials: FakeCredentialRepository;
  options: AccountsOptions;
  useCase: ManageAccountsUseCase;
  portalId: number;
  now: number;
  accessChanged: number;
  tokensDeleted: unknown[];
  enabled: number[];
  /** The tenants whose removal from their portal was announced (their ecommerce uninstall and alerts), in order. */
  uninstalling: { portalId: number; appId: string }[];
  /** A developer's application. */
  anApplication(): ReturnType<ManageAccountsUseCase['createApplication']>;
  /**
   * The secrets stored from now on; once the `nth` is stored, `meanwhile` runs before the store
   * answers, as another request between a refresh's steps would.
   */
  whenStored(nth: number, meanwhile: () => Promise<unknown>): string[];
  /** An application installed in the portal that refreshed once: the spent refresh token, and the pair it bought. */
  aRefreshedInstall(): Promise<
    Awaited<ReturnType<ManageAccountsUseCase['createApplication']>> & {
      refreshToken: string;
      received: Awaited<ReturnType<ManageAccountsUseCase['refresh']>>;
    }
  >;
}

/** Registers the `beforeEach` that makes the world again; call it at the top of a `describe`. */
export function accountsWorld(): AccountsWorld {
  const w = {} as AccountsWorld;
  beforeEach(() => {
    w.now = NOW;
    w.portals = new FakePortalRepository();
    w.accounts = new FakeAccountRepository();
    w.credentials = new FakeCredentialRepository();
    w.accessChanged = 0;
    w.tokensDeleted = [];
    w.enabled = [];
    w.uninstalling = [];
    const connections = new CrmConnections({ portals: w.portals, secretBox: box, builtinBaseUrl: 'http://crm.invalid', clock: () => NOW });
    w.options = {
      crm: { baseUrl: 'http://crm.invalid', adminToken: 'admin' },
      accessTokenTtlSeconds: TTL_SECONDS,
      // Rotation is on for 'installs and OAuth, refresh tokens rotating'; refresh tokens that last, the default, have a spec of their own.
      rotateRefreshTokens: true,
      secretBox: box,
      connections,
      onAccessChanged: async () => {
        w.accessChanged++;
      },
      onTokensDeleted: async (install) => {
        w.tokensDeleted.push(install);
      },
      refreshes: countingWindows(),
      onUninstalling: async (tenant) => {
        w.uninstalling.push(tenant);
      },
      onPortalEnabled: async (id) => {
        w.enabled.push(id);
      },
      clock: () => w.now,
    };
    w.useCase = new ManageAccountsUseCase(
      asRepositories({ portals: w.portals, accounts: w.accounts, credentials: w.credentials }),
      w.options,
      recordingLogger().logger,
    );
    w.portalId = w.portals.put(aPortal({ builtinCrmToken: { sealed: box.seal('crm-token', 'unused') } })).portalId;
  });

  w.anApplication = async () => {
    const { developerId } = await w.useCase.createDeveloper('Dev');
    return w.useCase.createApplication(developerId, 'Connector');
  };

  w.whenStored = (nth, meanwhile) => {
    const issue = w.credentials.issue.bind(w.credentials);
    const stored: string[] = [];
    jest.spyOn(w.credentials, 'issue').mockImplementation(async (...args) => {
      const issued = await issue(...args);
      stored.push(issued.secret);
      if (stored.length === nth) await meanwhile();
      return issued;
    });
    return stored;
  };

  w.aRefreshedInstall = async () => {
    const application = await w.anApplication();
    const { refreshToken } = await w.useCase.install(w.portalId, application.appId);
    const received = await w.useCase.refresh(application.clientId, application.clientSecret, refreshToken);
    return { ...application, refreshToken, received };
  };
  return w;
}
