/**
 * Slack's emoji shortcodes (`:large_green_circle:` → 🟢) for the console, from emojibase-data:
 * its `iamcal` preset is the shortcode set Slack uses, skin tones included. Built once, on the
 * first request, and served to the page as JSON.
 */
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';

interface CompactEmoji {
  hexcode: string;
  unicode: string;
  skins?: CompactEmoji[];
}

async function readJson<T>(specifier: string): Promise<T> {
  return JSON.parse(await readFile(fileURLToPath(import.meta.resolve(specifier)), 'utf8')) as T;
}

let built: Promise<Record<string, string>> | undefined;

/** Every shortcode Slack knows, without colons, → its emoji. */
export function slackEmoji(): Promise<Record<string, string>> {
  built ??= (async () => {
    const [emoji, shortcodes] = await Promise.all([
      readJson<CompactEmoji[]>('emojibase-data/en/compact.json'),
      readJson<Record<string, string | string[]>>('emojibase-data/en/shortcodes/iamcal.json'),
    ]);
    const map: Record<string, string> = {};
    for (const entry of emoji) {
      for (const one of [entry, ...(entry.skins ?? [])]) {
        for (const code of [shortcodes[one.hexcode] ?? []].flat()) map[code] = one.unicode;
      }
    }
    return map;
  })();
  return built;
}
