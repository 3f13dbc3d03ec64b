import request from 'supertest';
import type { Repositories } from '@ecomm-sync/data-access';
import { seedPortal } from './seed-portal';

/** A private-app token of a portal (POST /admin/v1/portals/{portalId}/private-apps). */
export interface PrivateAppCredential {
  token: string;
  credentialId: string;
}

/** A developer and its API key (POST /admin/v1/developers). */
export interface DeveloperCredential {
  developerId: number;
  apiKey: string;
}

/** An application and its OAuth client (POST /admin/v1/apps). */
export interface AppCredential {
  appId: string;
  clientId: string;
  clientSecret: string;
}

/** The tokens of an application's install in a portal (POST /admin/v1/installs). */
export interface InstallTokens {
  accessToken: string;
  refreshToken: string;
  expiresIn: number;
}

/** The gateway the credentials are made in: an Express app, a server or a base URL, as supertest takes it. */
export type GatewayTarget = Parameters<typeof request>[0];

export interface GatewayCredentials {
  /** A portal with a known API key, straight in the database (seedPortal). */
  portal(portalId: number, apiKey: string): Promise<void>;
  privateApp(portalId: number, name?: string): Promise<PrivateAppCredential>;
  developer(name?: string): Promise<DeveloperCredential>;
  app(developerId: number, name?: string): Promise<AppCredential>;
  install(portalId: number, appId: string): Promise<InstallTokens>;
  uninstall(portalId: number, appId: string): Promise<void>;
}

/** The builder: its calls go to the gateway it was made for, or through `on` to another (a replica, other settings). */
export type GatewayCredentialBuilder = GatewayCredentials & { on(other: GatewayTarget): GatewayCredentials };

/**
 * Every kind of credential the gateway takes, made as an operator makes them: through the gateway's
 * admin API (each call must answer 201, an uninstall 204), except the portal and its key, which are
 * seeded in the database, as seedPortal does.
 */
export function gatewayCredentials(
  gateway: GatewayTarget,
  repositories: Pick<Repositories, 'portals' | 'credentials'>,
  { adminToken = 'admin', secretsKey }: { adminToken?: string; secretsKey?: string } = {},
): GatewayCredentialBuilder {
  const make = (target: GatewayTarget): GatewayCredentials => {
    const admin = (method: 'post' | 'delete', path: string) => request(target)[method](path).set('authorization', `Bearer ${adminToken}`);
    const created = async <T>(path: string, body: object): Promise<T> => (await admin('post', path).send(body).expect(201)).body as T;
    return {
      portal: (portalId, apiKey) => seedPortal(repositories, { portalId, apiKey }, secretsKey),
      privateApp: (portalId, name = 'reporting') => created(`/admin/v1/portals/${portalId}/private-apps`, { name }),
      developer: (name = 'Developer') => created('/admin/v1/developers', { name }),
      app: (developerId, name = 'Connector') => created('/admin/v1/apps', { developerId, name }),
      install: (portalId, appId) => created('/admin/v1/installs', { portalId, appId }),
      uninstall: async (portalId, appId) => {
        await admin('delete', `/admin/v1/installs/${portalId}/${appId}`).expect(204);
      },
    };
  };
  return { ...make(gateway), on: make };
}
