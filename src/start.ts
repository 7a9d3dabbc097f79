/**
 * `npm start`: chooses between the bot (src/main.ts) and the sandbox (src/sandbox/main.ts).
 * With nothing configured it opens the sandbox; `SANDBOX=all|slack|collab` asks for a sandbox
 * part explicitly; any other configuration starts the bot, which names what is missing. Under
 * NODE_ENV=production it always starts the bot, whatever is set.
 */
import { chooseStart } from './sandbox/mode.ts';

const production = process.env.NODE_ENV?.trim() === 'production';
const choice = production ? ({ kind: 'bot' } as const) : chooseStart(process.env);
if (choice.kind === 'error') {
  process.stderr.write(
    `Configuration is incomplete:\n${choice.problems.map((p) => `  - ${p}`).join('\n')}\n`,
  );
  process.exit(1);
} else if (choice.kind === 'sandbox') {
  await import('./sandbox/main.ts');
} else {
  await import('./main.ts');
}
