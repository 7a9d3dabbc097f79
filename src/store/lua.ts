/**
 * The app's Redis scripts, kept as .lua files beside the modules that run them (store/lua/,
 * engine/lua/), as BullMQ keeps its own. Each is read once, when the module that runs it loads:
 * a file missing from a build fails the start, not a request (`npm run build` copies them to
 * dist/). A line `--- @include "name"` takes in store/lua/includes/name.lua, so a piece that
 * several scripts share (the fence of a job's lock, a pending telling) is written once.
 */
import { readFileSync } from 'node:fs';

const INCLUDES = new URL('./lua/includes/', import.meta.url);
const INCLUDE = /^--- @include "([\w-]+)"$/gm;

/** The text of `<folder><name>.lua`, its includes taken in (each at most once). */
export function luaScript(folder: URL, name: string): string {
  const included = new Set<string>();
  const read = (url: URL): string =>
    readFileSync(url, 'utf8').replace(INCLUDE, (_line, include: string) => {
      if (included.has(include)) return '';
      included.add(include);
      return read(new URL(`${include}.lua`, INCLUDES)).trimEnd();
    });
  return read(new URL(`${name}.lua`, folder));
}

const STORE_SCRIPTS = new URL('./lua/', import.meta.url);

/** A script of store/lua/. */
export function storeScript(name: string): string {
  return luaScript(STORE_SCRIPTS, name);
}

/** Deletes KEYS[1] when it holds ARGV[1] (a lock or lease of that owner); answers 1 when it did. */
export const DELETE_IF_HOLDS = storeScript('deleteIfHolds');
