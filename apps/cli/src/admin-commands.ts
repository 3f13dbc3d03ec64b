import axios from 'axios';
import { everyPage, isPageSizeFlag, PAGED_LISTINGS, pageSizeOf } from './admin-listing';
import { CRM_CONNECTION_USAGE, crmConnectionRequestBody } from './crm-connection-flags';
import { UsageError } from './usage-error';

export { UsageError };

interface AdminRequest {
  method: 'get' | 'post' | 'put' | 'patch' | 'delete';
  path: string;
  body?: object;
}

type Builder = (args: string[]) => AdminRequest;

const need = (args: string[], count: number, usage: string): string[] => {
  if (args.length < count || args.slice(0, count).some((arg) => arg === '')) throw new UsageError(`usage: ecomm-sync admin ${usage}`);
  return args;
};

/** Options whose value is a secret: given as `-`, it is read from standard input, not left in the process list and the shell's history. */
const SECRET_FLAGS = ['--token', '--client-secret', '--refresh-token'];

/** The arguments with each secret given as `-` replaced by the next line of standard input (`read` answers all of it). */
export async function withSecretsFromStdin(args: string[], read: () => Promise<string>): Promise<string[]> {
  const asked = args.flatMap((arg, i) => (arg === '-' && SECRET_FLAGS.includes(args[i - 1]) ? [i] : []));
  if (asked.length === 0) return args;
  const lines = (await read()).split(/\r?\n/);
  const result = [...args];
  asked.forEach((at, n) => {
    if (!lines[n]) throw new UsageError(`${args[at - 1]} - reads its value from standard input, one line per "-" in order: line ${n + 1} is missing or empty`);
    result[at] = lines[n];
  });
  return result;
}

/** All of standard input, from a pipe or a redirect: not from a terminal, where a typed secret would show and stay in its scrollback. */
async function readStandardInput(): Promise<string> {
  if (process.stdin.isTTY) {
    throw new UsageError(
      `a secret given as - is read from standard input: pipe it (printf '%s\\n' "$SECRET" | ...) or redirect a file (< file), not typed at a terminal`,
    );
  }
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** `ecomm-sync admin <resource> <action> ...`: each is one call of the admin API (docs/api.md). */
export const ADMIN_COMMANDS: Record<string, Record<string, { usage: string; build: Builder }>> = {
  portals: {
    list: { usage: 'portals list [--page-size n]', build: () => ({ method: 'get', path: '/admin/v1/portals' }) },
    show: { usage: 'portals show <portalId>', build: (a) => ({ method: 'get', path: `/admin/v1/portals/${need(a, 1, 'portals show <portalId>')[0]}` }) },
    create: { usage: 'portals create [name]', build: (a) => ({ method: 'post', path: '/admin/v1/portals', body: a[0] ? { name: a[0] } : {} }) },
    disable: {
      usage: 'portals disable <portalId>',
      build: (a) => ({ method: 'post', path: `/admin/v1/portals/${need(a, 1, 'portals disable <portalId>')[0]}/disable` }),
    },
    enable: {
      usage: 'portals enable <portalId>',
      build: (a) => ({ method: 'post', path: `/admin/v1/portals/${need(a, 1, 'portals enable <portalId>')[0]}/enable` }),
    },
    'pipeline-limit': {
      usage: 'portals pipeline-limit <portalId> <n>',
      build: (a) => {
        const [portalId, limit] = need(a, 2, 'portals pipeline-limit <portalId> <n>');
        return { method: 'patch', path: `/admin/v1/portals/${portalId}`, body: { pipelineLimit: Number(limit) } };
      },
    },
    'rotate-key': {
      usage: 'portals rotate-key <portalId>',
      build: (a) => ({ method: 'post', path: `/admin/v1/portals/${need(a, 1, 'portals rotate-key <portalId>')[0]}/api-key` }),
    },
    'crm-connection': {
      usage: CRM_CONNECTION_USAGE,
      build: (a) => {
        const [portalId, ...rest] = need(a, 2, CRM_CONNECTION_USAGE);
        const path = `/admin/v1/portals/${encodeURIComponent(portalId)}/crm-connection`;
        if (rest.length === 1 && rest[0] === 'show') return { method: 'get', path };
        return { method: 'put', path, body: crmConnectionRequestBody(rest) };
      },
    },
    'private-app': {
      usage: 'portals private-app <portalId> [name]',
      build: (a) => ({
        method: 'post',
        path: `/admin/v1/portals/${need(a, 1, 'portals private-app <portalId> [name]')[0]}/private-apps`,
        body: a[1] ? { name: a[1] } : {},
      }),
    },
  },
  developers: {
    list: { usage: 'developers list [--page-size n]', build: () => ({ method: 'get', path: '/admin/v1/developers' }) },
    create: { usage: 'developers create [name]', build: (a) => ({ method: 'post', path: '/admin/v1/developers', body: a[0] ? { name: a[0] } : {} }) },
    'rotate-key': {
      usage: 'developers rotate-key <developerId>',
      build: (a) => ({ method: 'post', path: `/admin/v1/developers/${need(a, 1, 'developers rotate-key <developerId>')[0]}/api-key` }),
    },
  },
  apps: {
    list: {
      usage: 'apps list [developerId] [--page-size n]',
      build: (a) => ({ method: 'get', path: `/admin/v1/apps${a[0] ? `?developerId=${encodeURIComponent(a[0])}` : ''}` }),
    },
    create: {
      usage: 'apps create <developerId> <name>',
      build: (a) => {
        const [developerId, name] = need(a, 2, 'apps create <developerId> <name>');
        return { method: 'post', path: '/admin/v1/apps', body: { developerId: Number(developerId), name } };
      },
    },
    'rotate-secret': {
      usage: 'apps rotate-secret <appId>',
      build: (a) => ({ method: 'post', path: `/admin/v1/apps/${encodeURIComponent(need(a, 1, 'apps rotate-secret <appId>')[0])}/client-secret` }),
    },
  },
  installs: {
    list: { usage: 'installs list [--page-size n]', build: () => ({ method: 'get', path: '/admin/v1/installs' }) },
    create: {
      usage: 'installs create <portalId> <appId>',
      build: (a) => {
        const [portalId, appId] = need(a, 2, 'installs create <portalId> <appId>');
        return { method: 'post', path: '/admin/v1/installs', body: { portalId: Number(portalId), appId } };
      },
    },
    remove: {
      usage: 'installs remove <portalId> <appId>',
      build: (a) => {
        const [portalId, appId] = need(a, 2, 'installs remove <portalId> <appId>');
        return { method: 'delete', path: `/admin/v1/installs/${portalId}/${encodeURIComponent(appId)}` };
      },
    },
  },
  credentials: {
    list: {
      usage: 'credentials list portal|developer|app <id>',
      build: (a) => {
        const [owner, id] = need(a, 2, 'credentials list portal|developer|app <id>');
        const parameter = { portal: 'portalId', developer: 'developerId', app: 'appId' }[owner];
        if (!parameter) throw new UsageError('usage: ecomm-sync admin credentials list portal|developer|app <id>');
        return { method: 'get', path: `/admin/v1/credentials?${parameter}=${encodeURIComponent(id)}` };
      },
    },
    revoke: {
      usage: 'credentials revoke <credentialId>',
      build: (a) => ({ method: 'delete', path: `/admin/v1/credentials/${encodeURIComponent(need(a, 1, 'credentials revoke <credentialId>')[0])}` }),
    },
  },
};

export const adminUsage = (): string =>
  Object.values(ADMIN_COMMANDS)
    .flatMap((actions) => Object.values(actions).map(({ usage }) => `  admin ${usage}`))
    .join('\n');

/** Runs one admin command against the gateway; answers what to print. */
export async function runAdminCommand(gatewayUrl: string, adminToken: string, args: string[], readStdin = readStandardInput): Promise<string> {
  const [resource, action, ...given] = args;
  // Typed words are any strings: "toString call" must not find Object.prototype's members.
  const actions = resource !== undefined && Object.hasOwn(ADMIN_COMMANDS, resource) ? ADMIN_COMMANDS[resource] : undefined;
  const command = actions && action !== undefined && Object.hasOwn(actions, action) ? actions[action] : undefined;
  if (!command) throw new UsageError(`unknown admin command "${[resource, action].filter(Boolean).join(' ')}"; one of:\n${adminUsage()}`);
  const listing = action === 'list' && PAGED_LISTINGS.includes(resource) ? pageSizeOf(given) : null;
  if (!listing && given.some(isPageSizeFlag)) {
    throw new UsageError(`--page-size applies to the listings that come a page at a time (${PAGED_LISTINGS.join(', ')} list), not to ${resource} ${action}`);
  }
  const { method, path, body } = command.build(await withSecretsFromStdin(listing?.rest ?? given, readStdin));
  const call = async (url: string) => {
    const response = await axios.request({
      method,
      url,
      data: body,
      headers: { authorization: `Bearer ${adminToken}` },
      validateStatus: () => true,
      timeout: 30_000,
    });
    if (response.status >= 400) throw new Error(`${response.status}: ${(response.data as { message?: string })?.message ?? JSON.stringify(response.data)}`);
    return response;
  };
  if (listing)
    return JSON.stringify(
      { results: await everyPage((url) => call(url).then((response) => response.data), `${gatewayUrl}${path}`, listing.pageSize) },
      null,
      2,
    );
  const response = await call(`${gatewayUrl}${path}`);
  return response.status === 204 ? 'done' : JSON.stringify(response.data, null, 2);
}
