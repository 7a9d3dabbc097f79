/**
 * How often what happens in the service is polled (the spec has no events): channel feeds at a
 * fixed interval, mirrored threads faster while their conversation is active.
 */
export interface PollingSettings {
  /** FEED_POLL_INTERVAL_MS: each followed Slack channel's feed */
  feedIntervalMs: number;
  /** THREAD_POLL_ACTIVE_MS: a mirrored thread active in the last THREAD_ACTIVE_WINDOW_MS */
  threadActiveMs: number;
  /** THREAD_POLL_IDLE_MS: a mirrored thread otherwise */
  threadIdleMs: number;
}

export const DEFAULT_POLLING: PollingSettings = {
  feedIntervalMs: 60_000,
  threadActiveMs: 15_000,
  threadIdleMs: 300_000,
};

/** A thread with a message sent or mirrored this recently is active. */
export const THREAD_ACTIVE_WINDOW_MS = 10 * 60_000;

/** Posts a feed poll asks for at once (newest activity first); more pages only after a burst. */
export const FEED_PAGE_SIZE = 20;
/** Messages a thread poll asks for at once (newest first). */
export const THREAD_PAGE_SIZE = 50;
/** Pages one poll reads at most, after a burst; the rest waits for the next poll. */
export const MAX_POLL_PAGES = 5;
