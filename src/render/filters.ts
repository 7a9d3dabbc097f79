/**
 * Filters of a feed or digest in words: "only unresolved posts, none by integrations, with
 * “deploy”". Plain text: callers escape it for mrkdwn.
 */

/** What the words describe (the store's PostFilters, as plain data). */
export interface FiltersShown {
  unresolved?: boolean | undefined;
  noApps?: boolean | undefined;
  with?: string[] | undefined;
  without?: string[] | undefined;
}

const quoted = (words: string[], joiner: string) => words.map((w) => `“${w}”`).join(joiner);

/** The filters in words, or undefined when there are none (every post). */
export function filtersText(filters: FiltersShown | undefined): string | undefined {
  if (!filters) return undefined;
  const parts: string[] = [];
  if (filters.unresolved) parts.push('only unresolved posts');
  if (filters.noApps) parts.push('none by integrations');
  if (filters.with?.length) parts.push(`with ${quoted(filters.with, ' or ')}`);
  if (filters.without?.length) parts.push(`without ${quoted(filters.without, ' or ')}`);
  return parts.length > 0 ? parts.join(', ') : undefined;
}
