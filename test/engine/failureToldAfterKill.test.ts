/**
 * A worker killed while it tells a person their operation failed. The failure is marked told
 * before the message goes out (so no later run tells anything else); a kill between the mark and
 * the message used to leave the person told nothing: the job's next run found the mark and
 * stopped. For a slash command the message now rides on the mark until it is out, and the next
 * run tells it again, replacing the same note.
 *
 * The same for a job that stalled out, whose failure its worker was telling when it was killed:
 * the sweep of stalled-out jobs in the next worker tells it again.
 *
 * The worker is a child process started as docs/operations.md says (ROLE=worker), SIGKILLed while the
 * Slack stand-in holds its failure message unanswered — a message Slack never got — and started
 * again. The web role is this process's. The failure told again also reaches the person's recent
 * operations on App Home, once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FaultEvent } from '../../src/sandbox/emulator/index.ts';
import { roleProcess } from '../faults/support/role-process.ts';
import { openHome } from '../jobs/helpers.ts';
import { ADA, type Harness, startHarness } from '../support/harness.ts';
import { finalsAt } from './stalling.ts';

describe('a worker killed while telling a failure', () => {
  let h: Harness;
  let worker: ReturnType<typeof roleProcess>;
  beforeAll(async () => {
    // A 1 s lock: the job of a killed worker is taken up again within a few seconds.
    h = await startHarness({ worker: false, env: { JOB_LOCK_MS: '1000' } });
    worker = roleProcess('worker', { ...h.peerEnv, LOG_LEVEL: 'info' });
    await worker.start();
  }, 60_000);
  afterAll(async () => {
    await worker?.stop();
    await h?.close();
  });

  it('tells a slash command’s failure once: its next run tells it again onto the same note', async () => {
    const held = h.slack.holdNextResponse((args) => String(args.text).startsWith(':warning:'));
    const settled = h.nextSettled('resolvePost');
    const ack = await h.command('resolve nope');
    expect(ack.status).toBe(200);
    const lost = await held;
    await worker.kill();
    await worker.start();
    const { state } = await settled;
    expect(state).toBe('failed');
    const finals = finalsAt(h, { responseId: 'cmd-1' });
    expect(finals).toEqual([lost.text]);
    expect(finals[0]).toMatch(/nope/);
    const told = h.slack.responseUrlCalls.find((call) => call.args.text === lost.text);
    expect(told?.args.replace_original).toBe(true);
    // The run killed never added it to the person's recent operations; the run that told it did.
    const failures = (await openHome(h, ADA, 'could not resolve the post')).text
      .split('\n')
      .filter((line) => /could not resolve the post: No post with id `nope`/.test(line));
    expect(failures).toHaveLength(1);
  }, 60_000);

  it('tells a stalled-out job’s failure once: the next worker’s sweep tells it again', async () => {
    // Three runs, each killed while the service holds its one request: the job stalls out.
    const route = 'GET /v2/channels';
    h.emulator.faults.add({ route, latencyMs: 20_000, times: 3 });
    let restarts = Promise.resolve();
    const restart = () => {
      restarts = restarts.then(async () => {
        await worker.kill();
        await worker.start();
      });
    };
    const onFault = ({ request }: FaultEvent) => {
      if (request.route === route) restart();
    };
    h.emulator.events.on('fault', onFault);
    try {
      // The worker that fails it tells its failure, and is killed as it does.
      const held = h.slack.holdNextResponse((args) => String(args.text).startsWith(':warning:'));
      const ack = await h.command('channels');
      expect(ack.status).toBe(200);
      const lost = await held;
      expect(lost.text).toMatch(/the worker stopped while running it/);
      restart();
      await restarts;
      const text = String(lost.text);
      const told = await h.slack.waitFor((call) => call.args.text === text, { timeoutMs: 30_000 });
      expect(told.path).toBe('/response/cmd-2');
      expect(told.args.replace_original).toBe(true);
      expect(finalsAt(h, { responseId: 'cmd-2' })).toEqual([text]);
      // The sweep says when it has told it (and added it to App Home): once there.
      await worker.logged(/told again a failure whose telling was cut short/);
      const failures = (await openHome(h, ADA, 'the worker stopped while running it')).text
        .split('\n')
        .filter((line) => /the worker stopped while running it/.test(line));
      expect(failures).toHaveLength(1);
    } finally {
      h.emulator.events.off('fault', onFault);
      h.emulator.faults.clear();
    }
  }, 90_000);
});
