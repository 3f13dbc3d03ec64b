import type { Express } from 'express';
import request from 'supertest';
import type { Tenant } from '@ecomm-sync/contracts';
import type { Database } from '@ecomm-sync/data-access';
import { emptyObjectState } from '@ecomm-sync/domain';
import { type AppCredential, type DeveloperCredential, type GatewayCredentialBuilder, gatewayCredentials, type InstallTokens } from '@ecomm-sync/testing';
import type { GatewayDeps } from './app';
import { startGatewayFixture, type GatewayFixture } from './gateway-fixture';

export const PORTAL_A = 8101;
export const PORTAL_B = 8102;
export const v1 = '/extensions/ecomm/v1';
export const v2 = '/extensions/ecomm/v2';
export const v2Settings = { enabled: false, mappings: { CONTACT: { properties: [{ externalPropertyName: 'mail', crmPropertyName: 'email' }] } } };

/** Everyone's credentials, made through the admin API. */
export interface Credentials {
  portalKeyA: string;
  portalKeyB: string;
  privateAppA: string;
  privateAppACredentialId: string;
  developer1: DeveloperCredential;
  developer2: DeveloperCredential;
  appX: AppCredential;
  appY: AppCredential;
  /** App X installed in portal A; app Y in portal B. */
  tokensAX: InstallTokens;
  tokensBY: InstallTokens;
}

/**
 * What the credential specs (credentials*.int-spec.ts, issue 7) share: a gateway on the real
 * database and broker, two portals, two developers with an application each (X installed in portal
 * A, Y in portal B), a private-app token in A, and data each tenant can see (a store `web`, an
 * object c1, settings, and one error each). A spec's tests may replace credentials in `c` (a
 * rotated key, a fresh install) for the tests after them.
 */
export interface CredentialsWorld {
  fixture: GatewayFixture;
  database: Database;
  app: Express;
  tenantCredentials: GatewayCredentialBuilder;
  c: Credentials;
  /** Another gateway replica on the same database and broker. */
  gateway(overrides?: Partial<GatewayDeps>): Promise<Express>;
  /** A call to the admin API with the admin token. */
  admin(method: 'get' | 'post' | 'delete', path: string, body?: object, on?: Express): request.Test;
}

/** Registers the `beforeAll` that makes the world and the `afterAll` that removes it; call it at the top of a `describe`. */
export function credentialsWorld(name: string): CredentialsWorld {
  const w = { c: {} as Credentials } as CredentialsWorld;
  const { c } = w;
  w.gateway = (overrides = {}) => w.fixture.gateway(overrides);
  w.admin = (method, path, body, on = w.app) => {
    const call = request(on)[method](path).set('authorization', 'Bearer admin');
    return body ? call.send(body) : call;
  };

  beforeAll(async () => {
    w.fixture = await startGatewayFixture(name);
    ({ database: w.database, app: w.app } = w.fixture);
    const { database } = w;
    const tenantCredentials = (w.tenantCredentials = gatewayCredentials(w.app, database.repositories));

    c.portalKeyA = 'pk-credentials-a';
    c.portalKeyB = 'pk-credentials-b';
    await tenantCredentials.portal(PORTAL_A, c.portalKeyA);
    await tenantCredentials.portal(PORTAL_B, c.portalKeyB);
    const privateApp = await tenantCredentials.privateApp(PORTAL_A, 'reporting');
    c.privateAppA = privateApp.token;
    c.privateAppACredentialId = privateApp.credentialId;
    c.developer1 = await tenantCredentials.developer('One');
    c.developer2 = await tenantCredentials.developer('Two');
    c.appX = await tenantCredentials.app(c.developer1.developerId, 'Connector X');
    c.appY = await tenantCredentials.app(c.developer2.developerId, 'Connector Y');
    c.tokensAX = await tenantCredentials.install(PORTAL_A, c.appX.appId);
    c.tokensBY = await tenantCredentials.install(PORTAL_B, c.appY.appId);

    const tenants: Tenant[] = [
      { portalId: PORTAL_A, appId: null },
      { portalId: PORTAL_A, appId: c.appX.appId },
      { portalId: PORTAL_B, appId: c.appY.appId },
    ];
    for (const tenant of tenants) {
      await database.repositories.stores.upsert(tenant, { id: 'web', label: 'Web' });
      for (const storeId of ['default', 'web']) {
        await database.repositories.objectStates.insertNew({ tenant, storeId, objectType: 'CONTACT' }, [{ externalObjectId: 'c1', state: emptyObjectState() }]);
      }
      await database.repositories.settings.put(tenant, { enabled: true, importOnInstall: false, webhookUri: null, mappings: {} });
      if (tenant.appId)
        await database.repositories.objectStates.insertNew({ tenant, storeId: 'web', objectType: 'CONTACT' }, [
          { externalObjectId: `only-${tenant.portalId}`, state: emptyObjectState() },
        ]);
      await database.repositories.syncErrors.record({ tenant, storeId: 'default', objectType: 'CONTACT' }, [
        {
          externalObjectId: `err-${tenant.portalId}-${tenant.appId ?? 'direct'}`,
          rev: 1,
          settingsRev: 1,
          type: 'INVALID_EMAIL_ADDRESS',
          details: 'x',
          changedAt: 1,
          erroredAt: 1,
        },
      ]);
    }
  });

  afterAll(() => w.fixture?.close());
  return w;
}
