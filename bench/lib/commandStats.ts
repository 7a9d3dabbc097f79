/** Calls per command from the text of Redis's `INFO commandstats` (commands inside scripts included). */
export function commandCalls(info: string): Map<string, number> {
  const stats = new Map<string, number>();
  for (const match of info.matchAll(/^cmdstat_([^:]+):calls=(\d+)/gm)) stats.set(match[1]!, Number(match[2]));
  return stats;
}
