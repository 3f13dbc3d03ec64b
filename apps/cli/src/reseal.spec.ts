import { resealOutcome, type ResealReport } from './reseal';

const report = (resealed: number, current: number, failed = 0): ResealReport => ({
  resealed,
  current,
  failed: Array.from({ length: failed }, (_, i) => ({ what: `portal ${i} crm token`, reason: 'no key opens it' })),
});
const at = { keyId: 'k2', database: 'ecomm_sync' };

describe('resealOutcome', () => {
  it.each<[string, ResealReport, boolean, number, RegExp]>([
    ['values sealed again and none failed', report(3, 2), false, 0, /^database ecomm_sync: sealed again under key k2: 3; already current: 2; failed: 0$/],
    ['every value already current', report(0, 5), false, 0, /already current: 5; failed: 0$/],
    ['a value failed', report(1, 0, 1), false, 1, /failed: 1\n {2}portal 0 crm token: no key opens it$/],
    ['no value found at all', report(0, 0), false, 1, /no sealed value found in database ecomm_sync: is it the services' database.*--allow-empty$/],
    ['no value found, empty allowed', report(0, 0), true, 0, /failed: 0$/],
  ])('when %s, then it exits as the table says', (_case, outcome, allowEmpty, exitCode, printed) => {
    const { lines, exitCode: code } = resealOutcome(outcome, { ...at, allowEmpty });
    expect(code).toBe(exitCode);
    expect(lines.join('\n')).toMatch(printed);
  });
});
