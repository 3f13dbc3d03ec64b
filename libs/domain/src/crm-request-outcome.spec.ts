import { crmRequestOutcome } from './crm-request-outcome';

describe('the outcome of a CRM request', () => {
  it.each([
    [200, 'ok'],
    [201, 'ok'],
    [204, 'ok'],
    [207, 'ok'],
    [400, 'client_error'],
    [404, 'client_error'],
    [409, 'client_error'],
    [429, 'rate_limited'],
    [500, 'server_error'],
    [503, 'server_error'],
    [0, 'no_answer'],
    [undefined, 'no_answer'],
  ] as const)('when the CRM answers %s, then the request counts as %s', (status, outcome) => {
    expect(crmRequestOutcome(status)).toBe(outcome);
  });
});
