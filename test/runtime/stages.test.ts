/**
 * The runner of the start's stages (src/runtime/stages.ts): stages stop last first, every stop
 * runs even when one fails, and a stage that fails to start stops those started before it.
 */
import { describe, expect, it } from 'vitest';
import { Starter, stopInReverse } from '../../src/runtime/stages.ts';

/** A stage that records its start and stop in `log`, and fails to stop if asked. */
function stage(log: string[], name: string, failStop = false) {
  return async () => {
    log.push(`start ${name}`);
    return {
      name,
      stop: async () => {
        log.push(`stop ${name}`);
        if (failStop) throw new Error(`${name} would not stop`);
      },
    };
  };
}

describe('the stages of a start', () => {
  it('stop in the reverse order of their start', async () => {
    const log: string[] = [];
    const stages = new Starter();
    for (const name of ['connect', 'core', 'workers', 'web']) await stages.start(stage(log, name));
    await stages.stop();
    expect(log).toEqual([
      'start connect',
      'start core',
      'start workers',
      'start web',
      'stop web',
      'stop workers',
      'stop core',
      'stop connect',
    ]);
  });

  it('hand each stage what it started', async () => {
    const stages = new Starter();
    const core = await stages.start(stage([], 'core'));
    expect(core.name).toBe('core');
  });

  it('run every stop although one fails, then throw its failure', async () => {
    const log: string[] = [];
    const stop = stopInReverse([
      (await stage(log, 'a')()).stop,
      (await stage(log, 'b', true)()).stop,
      (await stage(log, 'c')()).stop,
    ]);
    await expect(stop).rejects.toThrow('b would not stop');
    expect(log.filter((line) => line.startsWith('stop'))).toEqual(['stop c', 'stop b', 'stop a']);
  });

  it('stop the stages already started when one fails to start, and throw its failure', async () => {
    const log: string[] = [];
    const stages = new Starter();
    await stages.start(stage(log, 'connect'));
    await stages.start(stage(log, 'core'));
    const web = stages.start(async () => {
      throw new Error('port in use');
    });
    await expect(web).rejects.toThrow('port in use');
    expect(log).toEqual(['start connect', 'start core', 'stop core', 'stop connect']);
  });

  it('stop once: a second stop has nothing left to stop', async () => {
    const log: string[] = [];
    const stages = new Starter();
    await stages.start(stage(log, 'web'));
    await stages.stop();
    await stages.stop();
    expect(log).toEqual(['start web', 'stop web']);
  });
});
