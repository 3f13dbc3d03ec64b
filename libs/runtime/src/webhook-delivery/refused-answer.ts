import { shownDestination } from '@ecomm-sync/domain';

/**
 * Where a redirect leads, as a reason may show it: by its origin and last characters
 * (shownDestination), since a reason is stored and read by everyone who reads the tenant's imports
 * or alerts, and the path of a URL may be its credential (a Slack webhook's is); a relative target
 * is not shown.
 */
function shownLocation(location: string | null | undefined): string {
  if (!location || !/^https?:\/\//i.test(location)) return '';
  return ` to ${shownDestination('webhook', location)}`;
}

/**
 * What a webhook's answer other than 2xx means for its next attempt: a redirect is never followed
 * (decision 0026), so it answers the same at every attempt and says where it leads (shownLocation),
 * for whoever set the address to set it there; a 4xx other than 408 and 429 is final too; the rest (5xx, 408, 429)
 * may pass at a later attempt.
 */
export function refusedAnswer(status: number, location?: string | null): { final: boolean; error: string } {
  if (status >= 300 && status < 400) {
    return { final: true, error: `answered ${status}, a redirect${shownLocation(location)}: redirects are not followed, set the address to where it leads` };
  }
  return { final: status >= 400 && status < 500 && status !== 408 && status !== 429, error: `answered ${status}` };
}
