/**
 * Loaded into a worker with `node --import <this file>?dir=<directory>` (bench:worker `--heap`):
 * V8's sampling heap profiler for the process's whole life, keeping the objects that garbage
 * collection took (what a worker allocates per operation, not only what it holds), written to
 * `<directory>/<pid>.heapprofile` when the process is told to stop or exits. Open a profile in
 * Chrome DevTools (Memory), or sum its sizes over the run's operations: bytes allocated each.
 */
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';
import { join } from 'node:path';

const dir = new URL(import.meta.url).searchParams.get('dir');
if (dir) {
  const session = new Session();
  session.connect();
  session.post('HeapProfiler.enable');
  session.post('HeapProfiler.startSampling', {
    samplingInterval: 4096,
    includeObjectsCollectedByMajorGC: true,
    includeObjectsCollectedByMinorGC: true,
  });
  let written = false;
  const write = () => {
    if (written) return;
    written = true;
    session.post('HeapProfiler.stopSampling', (error, result) => {
      if (!error) writeFileSync(join(dir, `${process.pid}.heapprofile`), JSON.stringify(result.profile));
    });
  };
  process.on('SIGTERM', write);
  process.on('exit', write);
}
