import { weakSecretReason } from './secret-strength';

describe('weakSecretReason', () => {
  it.each([
    ['change-me', 'is a placeholder or development value'],
    ['change-me-32-random-bytes-base64-xxxxxxxxxx', 'is a placeholder or development value'],
    ['CHANGE_ME_admin_token_that_is_long_enough', 'is a placeholder or development value'],
    ['dev-admin-token', 'is a placeholder or development value'],
    ['dev-secrets-key-not-for-production', 'is a placeholder or development value'],
    ['<the admin token, at least 32 characters>', 'is a placeholder or development value'],
    ['admin', 'is a placeholder or development value'],
    ['s3cr3t-but-short', 'is shorter than 32 characters'],
    ['abababababababababababababababababab', 'has fewer than 8 different characters'],
    ['q9Vf3kLx0R2mT8wZ1yB6nC4hJ7pD5sGe', null],
    ['3Jp0c1mW4h0vY1yq5oR9XKc8o1cCk2mZ3x3c0rJ5a0E=', null],
  ])('when the secret is %p, then the reason is %p', (value, reason) => {
    expect(weakSecretReason(value)).toBe(reason);
  });
});
