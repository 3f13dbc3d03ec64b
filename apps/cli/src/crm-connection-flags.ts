/** The flags of `ecomm-sync admin portals crm-connection`, read into the body of the admin API's PUT. */
import { UsageError } from './usage-error';

export const CRM_CONNECTION_USAGE =
  'portals crm-connection <portalId> show | --kind builtin|hosted [--base-url <url>] [--token <token>|- | --client-id <id> --client-secret <secret>|- --refresh-token <token>|-] ' +
  '[--tier starter|professional|enterprise] [--burst-per-10s <n>] [--daily-cap <n>|none] [--time-zone <zone>] [--search-per-second <n>|none] ' +
  '(a secret given as - is read from standard input, one line per -, in order)';

const CRM_CONNECTION_FLAGS = [
  'kind',
  'base-url',
  'token',
  'client-id',
  'client-secret',
  'refresh-token',
  'tier',
  'burst-per-10s',
  'daily-cap',
  'time-zone',
  'search-per-second',
];

/** `--name value` pairs; an unknown flag or a flag without its value is a usage error. */
function flags(args: string[], known: string[], usage: string): Map<string, string> {
  const result = new Map<string, string>();
  for (let i = 0; i < args.length; i += 2) {
    const name = args[i].startsWith('--') ? args[i].slice(2) : '';
    const value = args[i + 1];
    if (!known.includes(name) || value === undefined || value.startsWith('--'))
      throw new UsageError(
        `${name ? `--${name} ${known.includes(name) ? 'needs a value' : 'is not an option'}` : `unexpected "${args[i]}"`}\nusage: ecomm-sync admin ${usage}`,
      );
    result.set(name, value);
  }
  return result;
}

const countOrNone = (value: string | undefined, flag: string): number | null | undefined => {
  if (value === undefined) return undefined;
  if (value === 'none') return null;
  const number = Number(value);
  if (!Number.isSafeInteger(number) || number < 1)
    throw new UsageError(`--${flag} must be a positive integer${flag === 'burst-per-10s' ? '' : ' or none'}, got "${value}"`);
  return number;
};

/** The body of PUT /admin/v1/portals/{id}/crm-connection from the command's flags (the gateway validates it). */
function crmConnectionBody(options: Map<string, string>): object {
  const limits = Object.fromEntries(
    Object.entries({
      burstPer10s: countOrNone(options.get('burst-per-10s'), 'burst-per-10s'),
      dailyCap: countOrNone(options.get('daily-cap'), 'daily-cap'),
      timeZone: options.get('time-zone'),
      searchPerSecond: countOrNone(options.get('search-per-second'), 'search-per-second'),
    }).filter(([, value]) => value !== undefined),
  );
  const token = options.get('token');
  const oauth = ['client-id', 'client-secret', 'refresh-token'].some((flag) => options.has(flag));
  // One kind of credentials: the gateway would refuse the mix, but taking one kind would drop the other's secrets unsaid.
  if (token !== undefined && oauth)
    throw new UsageError(
      `--token (a private app's token) and --client-id, --client-secret, --refresh-token (OAuth) are two kinds of credentials; give one\nusage: ecomm-sync admin ${CRM_CONNECTION_USAGE}`,
    );
  const auth =
    token !== undefined
      ? { type: 'private-app', token }
      : oauth
        ? { type: 'oauth', clientId: options.get('client-id'), clientSecret: options.get('client-secret'), refreshToken: options.get('refresh-token') }
        : undefined;
  return {
    kind: options.get('kind'),
    ...(options.has('base-url') ? { baseUrl: options.get('base-url') } : {}),
    ...(auth ? { auth: Object.fromEntries(Object.entries(auth).filter(([, value]) => value !== undefined)) } : {}),
    ...(options.has('tier') ? { tier: options.get('tier') } : {}),
    ...(Object.keys(limits).length > 0 ? { limits } : {}),
  };
}

/** `portals crm-connection <portalId> --kind ... [flags]`: the request body from the flags after the portal id; a usage error names what is wrong. */
export function crmConnectionRequestBody(args: string[]): object {
  const options = flags(args, CRM_CONNECTION_FLAGS, CRM_CONNECTION_USAGE);
  if (!options.has('kind')) throw new UsageError(`--kind builtin|hosted is required\nusage: ecomm-sync admin ${CRM_CONNECTION_USAGE}`);
  return crmConnectionBody(options);
}
