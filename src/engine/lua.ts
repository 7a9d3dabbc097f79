/** The engine's Redis scripts, as .lua files in engine/lua/ (store/lua.ts reads them, includes taken in). */
import { luaScript } from '../store/lua.ts';

const ENGINE_SCRIPTS = new URL('./lua/', import.meta.url);

/** A script of engine/lua/. */
export function engineScript(name: string): string {
  return luaScript(ENGINE_SCRIPTS, name);
}
