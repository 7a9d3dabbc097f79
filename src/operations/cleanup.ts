/**
 * Forgetting a workspace in the queue: its job schedulers (ids start with the team id: digests and
 * anything else scheduled per team) and its pending jobs (waiting, delayed, prioritized:
 * `data.origin.teamId` or `data.teamId` names the team). Active jobs finish; they find the workspace gone.
 */
import type { Queue } from 'bullmq';

const PAGE = 200;
const PENDING = ['waiting', 'delayed', 'prioritized', 'waiting-children'] as const;

/** `T123`, `T123:digest`, `T123-weekly` belong to T123; `T1234…` does not. */
export function schedulerOfTeam(schedulerId: string, teamId: string): boolean {
  if (!schedulerId.startsWith(teamId)) return false;
  const next = schedulerId.charAt(teamId.length);
  return next === '' || !/[A-Za-z0-9]/.test(next);
}

/** `data.origin.teamId` (a person's operation) or `data.teamId` (a scheduled job). */
function teamOfJobData(data: unknown): string | undefined {
  if (typeof data !== 'object' || data === null) return undefined;
  const own = (data as { teamId?: unknown }).teamId;
  if (typeof own === 'string') return own;
  const origin = (data as { origin?: unknown }).origin;
  if (typeof origin !== 'object' || origin === null) return undefined;
  const teamId = (origin as { teamId?: unknown }).teamId;
  return typeof teamId === 'string' ? teamId : undefined;
}

export async function removeTeamJobs(
  queue: Queue,
  teamId: string,
): Promise<{ schedulers: number; jobs: number }> {
  const schedulerIds: string[] = [];
  for (let start = 0; ; start += PAGE) {
    const page = await queue.getJobSchedulers(start, start + PAGE - 1, true);
    for (const scheduler of page) {
      if (schedulerOfTeam(scheduler.key, teamId)) schedulerIds.push(scheduler.key);
    }
    if (page.length < PAGE) break;
  }
  let schedulers = 0;
  for (const id of schedulerIds) if (await queue.removeJobScheduler(id)) schedulers += 1;

  const jobIds: string[] = [];
  for (let start = 0; ; start += PAGE) {
    const page = await queue.getJobs([...PENDING], start, start + PAGE - 1, true);
    for (const job of page) {
      if (job?.id && teamOfJobData(job.data) === teamId) jobIds.push(job.id);
    }
    if (page.length < PAGE) break;
  }
  let jobs = 0;
  for (const id of jobIds) {
    const job = await queue.getJob(id);
    if (!job) continue;
    try {
      await job.remove();
      jobs += 1;
    } catch {
      // it became active meanwhile (locked): it finds the workspace gone and stops
    }
  }
  return { schedulers, jobs };
}
