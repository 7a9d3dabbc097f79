/**
 * The filter words of `follow` and `digest add`:
 * `unresolved` · `no-apps` · `with <word or "words">` · `without <word or "words">`, in any order,
 * `with` and `without` repeatable (up to 10 each); `all` alone: every post (clears the filters).
 * Straight and curly quotes alike (“deploy window”).
 */
import type { PostFilters } from '../../../collab/postFilters.ts';

const MAX_WORDS = 10;
const WORD_MAX = 100;
const KEYWORDS = new Set(['unresolved', 'no-apps', 'noapps', 'with', 'without']);
const TOKEN = /"([^"]*)"|“([^”]*)”|(\S+)/g;

interface Token {
  text: string;
  quoted: boolean;
  at: number;
}

function tokens(text: string): Token[] {
  const out: Token[] = [];
  for (const m of text.matchAll(TOKEN)) {
    const quoted = m[1] ?? m[2];
    out.push({ text: (quoted ?? m[3] ?? '').trim(), quoted: quoted !== undefined, at: m.index });
  }
  return out;
}

/** Where the filter words start in `text` (the first filter keyword), or -1. */
export function filtersStart(text: string): number {
  const first = tokens(text).find((t) => !t.quoted && KEYWORDS.has(t.text.toLowerCase()));
  return first ? first.at : -1;
}

export type FiltersParse = { ok: true; filters: PostFilters } | { ok: false; error: string };

/** Parses filter words; `all` alone is no filter (`{}`). */
export function parseFilters(text: string): FiltersParse {
  const list = tokens(text);
  if (list.length === 1 && !list[0]!.quoted && list[0]!.text.toLowerCase() === 'all') {
    return { ok: true, filters: {} };
  }
  const filters: Required<Pick<PostFilters, 'with' | 'without'>> & PostFilters = { with: [], without: [] };
  for (let i = 0; i < list.length; i++) {
    const token = list[i]!;
    const word = token.quoted ? '' : token.text.toLowerCase();
    if (word === 'unresolved') filters.unresolved = true;
    else if (word === 'no-apps' || word === 'noapps') filters.noApps = true;
    else if (word === 'with' || word === 'without') {
      const next = list[i + 1];
      if (!next || next.text === '')
        return { ok: false, error: `Say which word after \`${word}\`, e.g. \`${word} "deploy"\`.` };
      if (next.text.length > WORD_MAX)
        return { ok: false, error: `A filter word is at most ${WORD_MAX} characters.` };
      const into = word === 'with' ? filters.with : filters.without;
      if (into.length >= MAX_WORDS)
        return { ok: false, error: `At most ${MAX_WORDS} words after \`${word}\`.` };
      into.push(next.text);
      i += 1;
    } else {
      return {
        ok: false,
        error: `I don't know the filter \`${token.text}\`. Use \`unresolved\`, \`no-apps\`, \`with "word"\`, \`without "word"\`, or \`all\`.`,
      };
    }
  }
  return {
    ok: true,
    filters: {
      ...(filters.unresolved ? { unresolved: true } : {}),
      ...(filters.noApps ? { noApps: true } : {}),
      ...(filters.with.length > 0 ? { with: filters.with } : {}),
      ...(filters.without.length > 0 ? { without: filters.without } : {}),
    },
  };
}
