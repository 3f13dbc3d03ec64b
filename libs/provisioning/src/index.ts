export { installEcommerce, installEcommerceFor, EcommerceInstallError } from './install-ecommerce';
export { provisionPortal } from './provision-portal';
export type { ProvisionedPortal, ProvisionPortalInput } from './provision-portal';
export { prepareSyncReadyPortal, DEMO_MAPPINGS } from './prepare-sync-ready-portal';
