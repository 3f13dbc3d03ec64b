export type AlertDestinationKind = 'webhook' | 'slack' | 'email';

/**
 * How an alert destination reads once added, to everyone who reads the tenant's alerts (the
 * customer and the integrator alike): an e-mail address whole; a URL by its origin and its last
 * four characters only. A Slack incoming webhook's URL is its credential (anyone holding it posts
 * to the channel), and any URL may carry a token in its path or query: its whole is kept only for
 * sending. The origin leaves out any user and password.
 */
export function shownDestination(kind: AlertDestinationKind, target: string): string {
  if (kind === 'email') return target;
  let url: URL;
  try {
    url = new URL(target);
  } catch {
    return '…';
  }
  const rest = `${url.pathname}${url.search}${url.hash}`;
  return rest === '/' ? url.origin : `${url.origin}/…${target.slice(-4)}`;
}

/**
 * A text (a failed notice's reason) with every http(s) URL in it shown as `shownDestination` shows
 * one: reasons stored before URLs were shown so still carry them whole.
 */
export const withUrlsShown = (text: string): string => text.replace(/https?:\/\/\S+?(?=:\s|\s|$)/g, (url) => shownDestination('webhook', url));
