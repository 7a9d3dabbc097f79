/**
 * The sandbox's own entry (`npm run sandbox`, or `npm start` when nothing is configured or
 * `SANDBOX` asks for it): emulates what the plan says, in this one process. Never under
 * NODE_ENV=production. The production entry (src/main.ts) does not import this file or anything
 * under src/sandbox.
 */
import { chooseStart } from './mode.ts';
import { runSandbox } from './run.ts';

function refuse(lines: string[]): never {
  process.stderr.write(`${lines.join('\n')}\n`);
  process.exit(1);
}

const env = process.env;
if (env.NODE_ENV?.trim() === 'production') {
  refuse([
    'The sandbox does not run with NODE_ENV=production: start dist/main.js with a full configuration.',
  ]);
}
// Run directly with some credentials set and no SANDBOX: everything is emulated, as asked.
const choice = chooseStart(env);
if (choice.kind === 'error')
  refuse(['Configuration is incomplete:', ...choice.problems.map((p) => `  - ${p}`)]);
await runSandbox(
  choice.kind === 'sandbox' ? choice.plan : { slack: 'local', collab: 'emulator', asked: 'all' },
);
