/**
 * The import rules of DESIGN.md ("Layout"), checked by `npm run lint`.
 *
 * Imports go downward only:
 *   main.ts, start.ts → runtime.ts → runtime/ (its stages) → slack/, jobs/ (and ops/)
 *   runtime/, jobs/, the CLI, slack/ (its telling entry only) → engine/ → operations/, render/,
 *   store/ → collab/
 *   slack/, jobs/ → workspaces/ → store/ → collab/
 *   slack/, jobs/ → operations/ → store/ → collab/
 *   slack/, jobs/ → render/ → operations/ (its types), collab/
 *   slack/, jobs/, engine/, workspaces/ → slackapi/ (Slack's Web API client and its errors)
 * engine/ is the exactly-once machinery (docs/engine.md): it knows no product feature, so it never
 * imports jobs/, slack/ or workspaces/; the product hands it what it needs. Only the layers above
 * it use it: the runtime (which builds the workers), jobs/ (the product), the CLI, and slack/.
 * They go through its front door, engine/index.ts; slack/ only through engine/tellNow.ts, its
 * telling entry (a listener answering a person at once).
 * operations/ (job names, schemas, enqueue) sits above store/, not beside it: enqueue claims an
 * idempotency key, and every Redis key lives in one file, store/keys.ts. render/ stays pure: it
 * imports only collab/ and operations/, never store/.
 * jobs/processors/ holds processors only, reached through its index.ts.
 * No import cycles, not even type-only ones: a type shared across a cycle moves to the lower
 * file (e.g. `ListenerDeps` lives in slack/listeners/deps.ts, not in slack/app.ts).
 *
 * The swc parser reads every import, `import type` included, so type-only cycles count.
 */
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-cycles',
      severity: 'error',
      comment:
        'No import cycles, not even type-only ones: move the shared type or function to the lower of the two files.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'no-unresolvable',
      severity: 'error',
      comment: 'An import the checker cannot resolve is a rule it cannot check.',
      from: {},
      to: { couldNotResolve: true },
    },
    {
      name: 'collab-imports-nothing-else',
      severity: 'error',
      comment: 'collab/ is the client of the collaboration API: it imports nothing else of the project.',
      from: { path: '^src/collab/' },
      to: { path: '^src/', pathNot: '^src/collab/' },
    },
    {
      name: 'slackapi-imports-nothing-else',
      severity: 'error',
      comment:
        "slackapi/ is the Web API client the app talks to Slack with, and the one place Slack's error codes get their kind: like collab/, it imports nothing else of the project.",
      from: { path: '^src/slackapi/' },
      to: { path: '^src/', pathNot: '^src/slackapi/' },
    },
    {
      name: 'operations-above-store',
      severity: 'error',
      comment:
        'operations/ (job names, schemas, enqueue) sits below slack/ and jobs/ and above store/: it imports only store/ (the claim key of an enqueue is in store/keys.ts, the one file of Redis keys) and collab/.',
      from: { path: '^src/operations/' },
      to: { path: '^src/', pathNot: '^src/(operations|store|collab)/' },
    },
    {
      name: 'store-imports-only-collab',
      severity: 'error',
      comment:
        'store/ is Redis-backed state: it never imports operations/, slack/, jobs/ or config.ts (it is handed plain settings). It may use collab/ and the logger.',
      from: { path: '^src/store/' },
      to: { path: '^src/', pathNot: ['^src/(store|collab)/', '^src/logger\\.ts$'] },
    },
    {
      name: 'workspaces-build-clients-from-state',
      severity: 'error',
      comment:
        'workspaces/ builds the Slack and service clients of a team from what store/ holds: it imports only store/, collab/, slackapi/ and the logger, and slack/, jobs/ and the runtime use it.',
      from: { path: '^src/workspaces/' },
      to: { path: '^src/', pathNot: ['^src/(workspaces|store|collab|slackapi)/', '^src/logger\\.ts$'] },
    },
    {
      name: 'render-is-pure',
      severity: 'error',
      comment:
        'render/ builds Block Kit from plain data: it imports only collab/ and operations/ (the Slack ids it builds with are render/ids.ts; never jobs/, store/, listeners or the app). A listener or processor reads what it needs and hands it in.',
      from: { path: '^src/render/' },
      to: { path: '^src/', pathNot: ['^src/render/', '^src/(collab|operations)/'] },
    },
    {
      name: 'listeners-not-from-app',
      severity: 'error',
      comment:
        'slack/app.ts registers the listeners; a listener never imports it (ListenerDeps is in slack/listeners/deps.ts).',
      from: { path: '^src/slack/listeners/' },
      to: { path: '^src/slack/app\\.ts$' },
    },
    {
      name: 'jobs-below-slack',
      severity: 'error',
      comment:
        'jobs/ use render/ builders and nothing of slack/ (no listeners, no app), and nothing above them.',
      from: { path: '^src/jobs/' },
      to: {
        path: '^src/(slack/|runtime\\.ts$|runtime/|main\\.ts$|start\\.ts$|ops/|cli/|sandbox/)',
        pathNot: '^src/render/',
      },
    },
    {
      name: 'processors-stand-alone',
      severity: 'error',
      comment:
        'jobs/processors/ holds one processor per operation and nothing else: what processors share lives in jobs/, so no processor imports another (index.ts gathers them).',
      from: { path: '^src/jobs/processors/', pathNot: '^src/jobs/processors/index\\.ts$' },
      to: { path: '^src/jobs/processors/' },
    },
    {
      name: 'processors-only-through-index',
      severity: 'error',
      comment:
        'jobs/processors/ holds processors and nothing else: no one imports a processor file but index.ts, which gathers them for the worker. A helper two processors (or a processor and a feed) share lives in jobs/.',
      from: { pathNot: '^src/jobs/processors/' },
      to: { path: '^src/jobs/processors/', pathNot: '^src/jobs/processors/index\\.ts$' },
    },
    {
      name: 'engine-knows-no-product',
      severity: 'error',
      comment:
        'engine/ is the exactly-once machinery: it imports operations/, render/, store/, collab/, slackapi/ and the logger, never jobs/, slack/, workspaces/ or anything above them. The product hands it what it needs.',
      from: { path: '^src/engine/' },
      to: {
        path: '^src/',
        pathNot: ['^src/(engine|operations|render|store|collab|slackapi)/', '^src/logger\\.ts$'],
      },
    },
    {
      name: 'engine-used-from-above',
      severity: 'error',
      comment:
        'Only the layers above the engine use it: the runtime (which builds the workers), jobs/ (the product), the CLI and slack/ (its telling entry). operations/, render/, store/, collab/, slackapi/, workspaces/, ops/ and config.ts sit below or beside it: they never import it.',
      from: { path: '^src/', pathNot: ['^src/(engine|jobs|slack|runtime|cli)/', '^src/runtime\\.ts$'] },
      to: { path: '^src/engine/' },
    },
    {
      name: 'engine-through-its-front-door',
      severity: 'error',
      comment:
        'Outside the engine, the runtime, jobs/ and the CLI use it through engine/index.ts, its front door (what the product may use); slack/ through engine/tellNow.ts alone.',
      from: { path: '^src/', pathNot: '^src/(engine|slack)/' },
      to: { path: '^src/engine/', pathNot: '^src/engine/index\\.ts$' },
    },
    {
      name: 'slack-tells-through-the-engine',
      severity: 'error',
      comment:
        "slack/ imports nothing of jobs/, and of engine/ only engine/tellNow.ts, the engine's telling entry (a listener answering a person at once; it imports nothing of slack/). Enqueue and job data are in operations/, below both.",
      from: { path: '^src/slack/' },
      to: { path: '^src/(jobs|engine)/', pathNot: '^src/engine/tellNow\\.ts$' },
    },
    {
      name: 'slack-below-runtime',
      severity: 'error',
      comment: 'slack/ never imports the runtime, the entries, ops/, the CLI or the sandbox.',
      from: { path: '^src/slack/' },
      to: { path: '^src/(runtime\\.ts$|runtime/|main\\.ts$|start\\.ts$|ops/|cli/|sandbox/)' },
    },
    {
      name: 'config-read-at-the-top',
      severity: 'error',
      comment:
        'config.ts is read by the entries, the runtime, ops/, the CLI and the Bolt app; lower layers are handed plain settings.',
      from: { path: '^src/(collab|operations|store|engine|jobs|render|slack/listeners)/' },
      to: { path: '^src/config\\.ts$' },
    },
    {
      name: 'entries-at-the-top',
      severity: 'error',
      comment:
        'Nothing imports the entries; only main.ts and the sandbox start runtime.ts (main.ts, start.ts and the sandbox are at the top).',
      from: { pathNot: '^src/(main|start)\\.ts$|^src/sandbox/' },
      to: { path: '^src/(runtime|main|start)\\.ts$' },
    },
    {
      name: 'stages-only-through-the-runtime',
      severity: 'error',
      comment:
        'runtime/ holds the stages of a start (connect, core, workers, web); only runtime.ts composes them, and nothing below imports them.',
      from: { path: '^src/', pathNot: ['^src/runtime\\.ts$', '^src/runtime/'] },
      to: { path: '^src/runtime/' },
    },
    {
      name: 'sandbox-has-its-own-entry',
      severity: 'error',
      comment:
        'Only the sandbox itself and the `npm start` launcher (start.ts) import src/sandbox/; production code never does.',
      from: { path: '^src/', pathNot: ['^src/sandbox/', '^src/start\\.ts$'] },
      to: { path: '^src/sandbox/' },
    },
    {
      name: 'main-never-reaches-the-sandbox',
      severity: 'error',
      comment: 'The production entry never loads the sandbox, not even through another module.',
      from: { path: '^src/main\\.ts$' },
      to: { path: '^src/sandbox/', reachable: true },
    },
  ],
  options: {
    parser: 'swc',
    doNotFollow: { path: 'node_modules' },
    enhancedResolveOptions: { extensions: ['.ts', '.js'] },
  },
};
