/**
 * The build (`npm run build`; the image's build stage runs it): src/ compiled by
 * tsconfig.build.json, and beside the compiled modules what they read at run time: the Redis
 * scripts (the .lua files under src/, each read when its module loads) and the sandbox
 * console's static files.
 *
 *   node scripts/build.mjs [outDir]    (default dist/)
 */
import { execFileSync } from 'node:child_process';
import { cpSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
const src = join(root, 'src');
const out = resolve(process.argv[2] ?? join(root, 'dist'));

const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
execFileSync(process.execPath, [tsc, '-p', join(root, 'tsconfig.build.json'), '--outDir', out], {
  stdio: 'inherit',
});
const consoleFiles = join('sandbox', 'console', 'public');
cpSync(join(src, consoleFiles), join(out, consoleFiles), { recursive: true });
cpSync(src, out, { recursive: true, filter: (path) => statSync(path).isDirectory() || path.endsWith('.lua') });
