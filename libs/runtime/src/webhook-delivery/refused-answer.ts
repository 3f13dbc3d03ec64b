/** At most this much of a redirect's target is quoted in a reason. */
const LOCATION_SHOWN = 200;

/**
 * What a webhook's answer other than 2xx means for its next attempt: a redirect is never followed
 * (decision 0026), so it answers the same at every attempt and says where it leads, for whoever set
 * the address to set it there; a 4xx other than 408 and 429 is final too; the rest (5xx, 408, 429)
 * may pass at a later attempt.
 */
export function refusedAnswer(status: number, location?: string | null): { final: boolean; error: string } {
  if (status >= 300 && status < 400) {
    const to = location ? ` to ${location.length > LOCATION_SHOWN ? `${location.slice(0, LOCATION_SHOWN)}…` : location}` : '';
    return { final: true, error: `answered ${status}, a redirect${to}: redirects are not followed, set the address to where it leads` };
  }
  return { final: status >= 400 && status < 500 && status !== 408 && status !== 429, error: `answered ${status}` };
}
