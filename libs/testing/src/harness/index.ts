export { TestStack } from './test-stack';
export { ISOLATING_VARIABLES } from './stack-environment';
export type { AppName, StackOptions, TestPortal } from './test-stack';
export { seedPortal, TEST_SECRETS_KEY } from './seed-portal';
export { gatewayCredentials } from './gateway-credentials';
export type {
  AppCredential,
  DeveloperCredential,
  GatewayCredentialBuilder,
  GatewayCredentials,
  GatewayTarget,
  InstallTokens,
  PrivateAppCredential,
} from './gateway-credentials';
