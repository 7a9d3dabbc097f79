import type { Processor } from '../context.ts';
import { publishHomeOf } from '../home.ts';

/** App Home for one person: what they see when they open the app (jobs/home.ts builds it). */
export const publishHome: Processor<'publishHome'> = (data, ctx) => publishHomeOf(ctx, data);
