/**
 * Slack honours an interaction's `response_url` for 30 minutes from when it issued it (and 5
 * uses). One rule for the listener that carries it into a job and the worker that answers on it:
 * usable while younger than 29 minutes, a minute's margin for the answer to arrive.
 */
export const RESPONSE_URL_USABLE_MS = 29 * 60_000;

/** Whether a response_url issued at `issuedAt` (epoch ms) may still be used at `now`. */
export function isResponseUrlFresh(issuedAt: number, now: number): boolean {
  return now - issuedAt < RESPONSE_URL_USABLE_MS;
}

/**
 * The response_url of `where` if it may still be used at `now`, else undefined. It is dated
 * from `responseUrlAt` (when Slack issued it: a modal's is its opener's), or else from
 * `receivedAt` (the interaction that carried it); a url with neither date is never used.
 */
export function usableResponseUrl(
  where: {
    responseUrl?: string | undefined;
    responseUrlAt?: number | undefined;
    receivedAt?: number | undefined;
  },
  now: number,
): string | undefined {
  const issuedAt = where.responseUrlAt ?? where.receivedAt;
  if (where.responseUrl === undefined || issuedAt === undefined) return undefined;
  return isResponseUrlFresh(issuedAt, now) ? where.responseUrl : undefined;
}
