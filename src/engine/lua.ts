/**
 * The engine's Redis scripts, as .lua files in engine/lua/ (store/lua.ts reads them, includes
 * taken in). None of them names a key or field of BullMQ's own: those come in as KEYS and ARGV
 * from bullmq.ts, the one file that knows BullMQ's layout.
 */
import { luaScript } from '../store/lua.ts';

const ENGINE_SCRIPTS = new URL('./lua/', import.meta.url);

/** A script of engine/lua/. */
export function engineScript(name: string): string {
  return luaScript(ENGINE_SCRIPTS, name);
}
