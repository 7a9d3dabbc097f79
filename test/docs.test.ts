/**
 * The Markdown of the repository's root and of docs/: every relative link and image points at a
 * file or folder that exists, and every `#anchor` (in the same page or another) at a heading of
 * that page, named as GitHub names it. Read with marked's lexer, so code blocks and code spans
 * are not taken for links. README.md stays a front door and BENCHMARKS.md a report: short, the
 * current figures first.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { marked, type Token, type Tokens } from 'marked';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

const pages = [
  ...readdirSync(ROOT).filter((name) => name.endsWith('.md')),
  ...readdirSync(join(ROOT, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
];

/** Where a token holds others: inline tokens, list items, table cells. */
interface Nested {
  tokens?: Token[];
  items?: Token[];
  header?: { tokens: Token[] }[];
  rows?: { tokens: Token[] }[][];
}

/** Every token of a tree, tables and lists included. */
function* walk(tokens: readonly Token[]): Generator<Token> {
  for (const token of tokens) {
    yield token;
    const t = token as Nested;
    if (t.tokens) yield* walk(t.tokens);
    if (t.items) yield* walk(t.items);
    if (t.header) for (const cell of t.header) yield* walk(cell.tokens);
    if (t.rows) for (const row of t.rows) for (const cell of row) yield* walk(cell.tokens);
  }
}

/** The text a heading shows: code spans keep their text, emphasis and links lose their marks. */
function plainText(tokens: readonly Token[]): string {
  return tokens
    .map((token) => {
      const t = token as Partial<Tokens.Generic>;
      if (t.tokens) return plainText(t.tokens);
      return token.type === 'codespan' || token.type === 'text' || token.type === 'escape'
        ? (t.text ?? '')
        : (t.raw ?? '');
    })
    .join('');
}

/** GitHub's anchor of a heading: lower case, punctuation dropped, each space a hyphen. */
function slugOf(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');
}

const lexed = new Map<string, Token[]>();
function tokensOf(page: string): Token[] {
  let tokens = lexed.get(page);
  if (!tokens) {
    tokens = marked.lexer(readFileSync(join(ROOT, page), 'utf8'));
    lexed.set(page, tokens);
  }
  return tokens;
}

/** The anchors of a page, a repeated heading numbered as GitHub numbers it (`-1`, `-2`, …). */
function anchorsOf(page: string): Set<string> {
  const anchors = new Set<string>();
  for (const token of walk(tokensOf(page))) {
    if (token.type !== 'heading') continue;
    const base = slugOf(plainText((token as Tokens.Heading).tokens));
    let slug = base;
    for (let n = 1; anchors.has(slug); n++) slug = `${base}-${n}`;
    anchors.add(slug);
  }
  return anchors;
}

function linksOf(page: string): string[] {
  const links: string[] = [];
  for (const token of walk(tokensOf(page))) {
    if (token.type === 'link' || token.type === 'image') links.push((token as Tokens.Link).href);
  }
  return links;
}

/** What is wrong with one link of a page, or undefined when it resolves. */
function problemOf(page: string, href: string): string | undefined {
  if (/^[a-z][a-z0-9+.-]*:/i.test(href)) return undefined; // https:, mailto: …
  const [path = '', anchor] = href.split('#', 2);
  const target = path === '' ? page : relative(ROOT, join(ROOT, dirname(page), decodeURI(path)));
  if (target.startsWith('..')) return `${href} leaves the repository`;
  if (!existsSync(join(ROOT, target))) return `${href}: no ${target}`;
  if (anchor === undefined) return undefined;
  if (!target.endsWith('.md') || statSync(join(ROOT, target)).isDirectory()) {
    return `${href}: an anchor into a page that is not Markdown`;
  }
  return anchorsOf(target).has(anchor) ? undefined : `${href}: no heading #${anchor} in ${target}`;
}

describe('docs', () => {
  it('finds the pages and their links', () => {
    expect(pages).toEqual(expect.arrayContaining(['README.md', 'docs/using.md', 'docs/runbook.md']));
    expect(linksOf('README.md').length).toBeGreaterThan(10);
  });

  it.each(pages)('%s: every relative link and anchor resolves', (page) => {
    const problems = linksOf(page)
      .map((href) => problemOf(page, href))
      .filter((problem) => problem !== undefined);
    expect(problems).toEqual([]);
  });

  it('keeps README.md a front door and BENCHMARKS.md a report', () => {
    const lines = (page: string) => readFileSync(join(ROOT, page), 'utf8').split('\n').length;
    expect(lines('README.md')).toBeLessThanOrEqual(250);
    expect(lines('BENCHMARKS.md')).toBeLessThanOrEqual(400);
    const firstSection = tokensOf('BENCHMARKS.md').find((t) => t.type === 'heading' && t.depth === 2);
    expect(firstSection && plainText((firstSection as Tokens.Heading).tokens)).toBe('Current figures');
  });

  it('names anchors as GitHub does', () => {
    expect(slugOf("The service's rate limit: one request budget per service host")).toBe(
      'the-services-rate-limit-one-request-budget-per-service-host',
    );
    expect(slugOf('Personal notifications: /collab notify on|off')).toBe(
      'personal-notifications-collab-notify-onoff',
    );
    expect(slugOf('Tracing (OpenTelemetry)')).toBe('tracing-opentelemetry');
  });

  it('reports a link to a missing page and to a missing heading', () => {
    expect(problemOf('README.md', 'docs/nowhere.md')).toContain('no docs/nowhere.md');
    expect(problemOf('README.md', 'docs/using.md#nowhere')).toContain('no heading #nowhere');
    expect(problemOf('docs/using.md', '#commands')).toBeUndefined();
    expect(problemOf('docs/using.md', '../README.md#quick-start')).toBeUndefined();
  });
});
