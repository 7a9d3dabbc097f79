/**
 * Limits of what an operation carries: the job schemas enforce them, and the modals that collect
 * the text state them, so both read them from here.
 */
/** Slack allows 40,000 characters in a message; the service's limits are "not shown". */
export const TEXT_MAX = 40_000;
/** A post's title: a line people scan in lists and cards; the spec shows no limit, so this is ours. */
export const TITLE_MAX = 250;
