/**
 * The service's refusals as the console says them (issue 30, item 7): the API speaks to
 * integrators ("add ?appId=…", "body/externalObjectId must …", "Retry-After"), the console to
 * people. The first rule that matches an answer's status and message gives the sentence; an answer
 * no rule knows is shown as the service wrote it.
 */
interface Rule {
  /** Which answers the rule is for. */
  status?: number | ((status: number) => boolean);
  message?: RegExp;
  /** What the console says instead (from the message's match when the rule has one). */
  say: (match: RegExpExecArray | null) => string;
}

/** Field names of request bodies and queries, as a form labels them. */
const FIELD_LABELS: Record<string, string> = {
  externalObjectId: 'The external id',
  storeId: 'The store',
  /** The console sends an `id` in one body only: a store's (PUT /extensions/ecomm/v2/stores). */
  id: 'The store id',
  objectType: 'The object type',
  portalId: 'The portal',
  appId: 'The application id',
  label: 'The label',
  webhookUri: 'The webhook address',
  name: 'The name',
  threshold: 'The threshold',
  minutes: 'The minutes',
  unreachableMinutes: 'The minutes without an answer',
  url: 'The address',
  email: 'The e-mail address',
};
const fieldLabel = (path: string): string => {
  const field = path.split('/').pop() ?? path;
  return FIELD_LABELS[field] ?? `The field ${field}`;
};

export const PLAIN_MESSAGES: readonly Rule[] = [
  {
    status: 401,
    message: /hapikey|api key/i,
    say: () => 'This key is not valid any more: it was rotated, revoked or mistyped. Sign out and sign in with a current key.',
  },
  { status: 401, message: /access token expired/i, say: () => 'Your sign-in expired. Sign out and sign in with a new access token.' },
  {
    status: 401,
    say: () => 'This credential is not accepted any more (revoked, expired or mistyped). Sign out and sign in again.',
  },
  {
    message: /add \?appId=/,
    say: () => 'This developer key needs an application: sign out and sign in with the application id too.',
  },
  { message: /add \?portalId=/, say: () => 'Choose a portal first (the portal picker above).' },
  {
    message: /^(?:body|query)\/([\w/]+) must (?:NOT have more than|be at most) (\d+) characters/,
    say: (match) => `${fieldLabel(match![1])} is too long: at most ${match![2]} characters.`,
  },
  { message: /^body must match exactly one schema in oneOf$/, say: () => 'This is not accepted: check each field against the hint beside it.' },
  // A form sends no null: the API's "(or null, the same as leaving it out)" is not for its user.
  { message: /^(?:body|query)\/([\w/]+) must (.+)$/, say: (match) => `${fieldLabel(match![1])} must ${withoutNull(match![2])}.` },
  { message: /^Query parameter (\w+) must (.+)$/, say: (match) => `${fieldLabel(match![1])} must ${match![2]}.` },
  {
    status: 429,
    message: /^Too many failed authentication attempts/,
    say: () => 'This credential was refused too often: it is not valid any more (rotated, revoked or mistyped). Sign out and sign in with a current one.',
  },
  { status: 429, say: () => 'Too many requests just now. Wait a few seconds and try again; pages that update themselves go on by themselves.' },
  { status: 431, say: () => 'That is too long for the service to read. Shorten what you typed and try again.' },
  { status: 413, say: () => 'That is too large to send at once.' },
];

const withoutNull = (what: string): string => what.replace(' (or null, the same as leaving it out)', '');

const matchesStatus = (rule: Rule, status: number) =>
  rule.status === undefined || (typeof rule.status === 'function' ? rule.status(status) : rule.status === status);

/** The sentence the console shows for an answer with `status` and the service's `message`. */
export function plainMessage(status: number, message: string): string {
  for (const rule of PLAIN_MESSAGES) {
    if (!matchesStatus(rule, status)) continue;
    if (!rule.message) return rule.say(null);
    const match = rule.message.exec(message);
    if (match) return rule.say(match);
  }
  return message;
}
