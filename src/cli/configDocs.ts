/**
 * The configuration page's table of variables, generated from the schema in src/config.ts:
 *
 *   npm run docs:config              rewrites the table between the page's markers
 *   npm run docs:config -- --check   exits 1 if the page's table is not the schema's
 *
 * A test runs the check, so the page and the schema cannot disagree.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { CONFIG_VARIABLES, describeVariable } from '../config.ts';

/** The page that holds the table, from the repository's root. */
export const CONFIG_PAGE = 'docs/configuration.md';

export const TABLE_START =
  '<!-- generated from src/config.ts by `npm run docs:config`: edit the schema, not this table -->';
export const TABLE_END = '<!-- end of the generated table -->';

/** The Markdown table: one row per variable, in the schema's order. */
export function configTable(): string {
  const rows = CONFIG_VARIABLES.map(
    (name) => `| \`${name}\` | ${describeVariable(name).replace(/\|/g, '\\|')} |`,
  );
  return ['| variable | meaning |', '|---|---|', ...rows].join('\n');
}

/** The page with the table between its markers replaced by `table`. */
export function withTable(page: string, table: string): string {
  const start = page.indexOf(TABLE_START);
  const end = page.indexOf(TABLE_END);
  if (start < 0 || end < start) {
    throw new Error(
      `${CONFIG_PAGE} has no markers around the configuration table (${TABLE_START} … ${TABLE_END})`,
    );
  }
  return `${page.slice(0, start + TABLE_START.length)}\n${table}\n\n${page.slice(end)}`;
}

/** Rewrites (or, with `--check`, checks) the table of the page under `root`; the exit code. */
export function runConfigDocs(args: readonly string[], root: string, write: (text: string) => void): number {
  const path = `${root}/${CONFIG_PAGE}`;
  const page = readFileSync(path, 'utf8');
  const generated = withTable(page, configTable());
  if (generated === page) {
    write(`${CONFIG_PAGE}: the configuration table is up to date.\n`);
    return 0;
  }
  if (args.includes('--check')) {
    write(`${CONFIG_PAGE}: the configuration table differs from src/config.ts; run npm run docs:config.\n`);
    return 1;
  }
  writeFileSync(path, generated);
  write(`${CONFIG_PAGE}: the configuration table was rewritten from src/config.ts.\n`);
  return 0;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  process.exit(runConfigDocs(process.argv.slice(2), process.cwd(), (text) => process.stdout.write(text)));
}
