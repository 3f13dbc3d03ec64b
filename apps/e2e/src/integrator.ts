import axios, { type AxiosResponse } from 'axios';
import { startWebhookReceiver, type TestPortal, type TestStack, type WebhookReceiver } from '@ecomm-sync/testing';

/** What an integrator holds once its application is installed in a portal. */
export interface InstalledApplication {
  developerKey: string;
  appId: string;
  clientSecret: string;
  /** The install's OAuth access token: the application acting in that portal. */
  accessToken: string;
}

/** A developer with one application, installed in `portal`, all through the admin API (as an operator would). */
export async function installAnApplication(
  stack: TestStack,
  portal: TestPortal,
  names: { developer: string; application: string },
): Promise<InstalledApplication> {
  const admin = axios.create({ baseURL: `${stack.gatewayUrl}/admin/v1`, headers: { authorization: `Bearer ${stack.adminToken}` } });
  const developer = (await admin.post('/developers', { name: names.developer })).data;
  const application = (await admin.post('/apps', { developerId: developer.developerId, name: names.application })).data;
  const tokens = (await admin.post('/installs', { portalId: portal.portalId, appId: application.appId })).data;
  return { developerKey: developer.apiKey, appId: application.appId, clientSecret: application.clientSecret, accessToken: tokens.accessToken };
}

export type ImportType = 'CONTACT' | 'PRODUCT' | 'DEAL' | 'LINE_ITEM';

/**
 * The integrator's import address: it checks each webhook's signature with the application's
 * secret (401 when it does not match) and answers how many objects of each type it will send.
 */
export const startImportWebhook = (application: InstalledApplication, counts: Record<ImportType, number>): Promise<WebhookReceiver> =>
  startWebhookReceiver(
    () => application.clientSecret,
    (body, verified) => {
      if (!verified.ok) return { status: 401, json: { message: verified.reason } };
      const { settingsToImport } = body as { settingsToImport: { settingsId: number; objectType: ImportType }[] };
      return { status: 200, json: { importCounts: settingsToImport.map(({ settingsId, objectType }) => ({ settingsId, count: counts[objectType] })) } };
    },
  );

/** A mapping of a property to the CRM property of the same name. */
export const same = (name: string) => ({ externalPropertyName: name, crmPropertyName: name });

/** The application's v2 settings, enabled, with its import address (`webhookUri`) and these mappings. */
export const useImportWebhook = (
  stack: TestStack,
  application: InstalledApplication,
  webhookUri: string,
  mappings: Record<ImportType, { properties: object[] }>,
): Promise<AxiosResponse> =>
  axios.put(
    `${stack.gatewayUrl}/extensions/ecomm/v2/settings`,
    { enabled: true, webhookUri, mappings },
    { params: { hapikey: application.developerKey, appId: application.appId } },
  );
