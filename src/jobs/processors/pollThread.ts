/** pollThread: one tick of a mirrored thread's scheduler (see mirroring.ts). */
import type { Processor } from '../context.ts';
import { pollThreadOnce } from '../mirroring.ts';

export const pollThread: Processor<'pollThread'> = async (data, ctx) => {
  await pollThreadOnce(ctx, data.threadId);
};
