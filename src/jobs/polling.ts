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
/**
 * Carded posts a feed poll re-reads by id at most (least recently read first): a resolution made
 * in the service moves no list order, so only reading the post shows it. A quiet channel with N
 * watched posts costs 1 + min(N, FEED_RECHECK_BATCH) requests a poll, and each watched post is
 * read at least every ceil(N / FEED_RECHECK_BATCH) polls.
 */
export const FEED_RECHECK_BATCH = 10;
/**
 * How long a feed keeps re-reading a post after it saw it resolved (to notice a reopen); an open
 * carded post is re-read as long as it has cards.
 */
export const REOPEN_WATCH_MS = 24 * 3600_000;
/** Pages one poll reads at most, after a burst; the rest waits for the next poll. */
export const MAX_POLL_PAGES = 5;
