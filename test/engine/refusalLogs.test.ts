/**
 * What the terminal shows when an operation ends: a person's bad input (`/collab resolve nope`)
 * is one info line without a stack, since it is answered to them; a fault (a key the service
 * rejects) stays a warning with the error's details. Read from the bot's real pino output.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from '../support/harness.ts';
import { captureLogs, type LogLine } from '../support/log-capture.ts';

const INFO = 30;
const WARN = 40;

describe('logs of refused and failed operations', () => {
  const logs = captureLogs();
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ logs });
  });
  afterEach(() => h.emulator.faults.clear());
  afterAll(() => h.close());

  const linesOf = (jobId: string): LogLine[] => logs.lines().filter((l) => l.jobId === jobId);

  it('logs a person’s unknown post at info level, without a stack', async () => {
    const ack = await h.command('resolve nope');
    expect(ack.status).toBe(200);
    const { job, state } = await h.nextSettled('resolvePost');
    expect(state).toBe('failed');
    const lines = linesOf(String(job.id));
    const refused = lines.find((l) => l.msg === 'operation refused');
    expect(refused?.level).toBe(INFO);
    expect(String(refused?.reason)).toMatch(/nope/);
    expect(lines.some((l) => (l.level as number) >= WARN)).toBe(false);
    expect(JSON.stringify(lines)).not.toMatch(/"stack"|\n\s+at /);
  });

  it('keeps a fault (a rejected API key) at warn level with its details', async () => {
    h.emulator.faults.add({ route: 'GET /v2/channels', status: 401, times: Infinity });
    const ack = await h.command('channels');
    expect(ack.status).toBe(200);
    const { job, state } = await h.nextSettled('listChannels');
    expect(state).toBe('failed');
    const failed = linesOf(String(job.id)).find((l) => l.msg === 'operation failed');
    expect(failed?.level).toBe(WARN);
    expect(failed?.err).toMatchObject({ reason: 'unauthorized', status: 401 });
  });
});
