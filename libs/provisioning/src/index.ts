export { installEcommerce, EcommerceInstallError } from './install-ecommerce';
export { provisionPortal } from './provision-portal';
export type { ProvisionedPortal, ProvisionPortalInput } from './provision-portal';
export { newSecret } from './secrets';
