import type { App } from '@slack/bolt';
import { STEP_IDS } from '../../../operations/workflowSteps.ts';
import type { ListenerDeps } from '../deps.ts';
import { workflowStepListener } from './workflowStep.ts';

/** One `app.function` per Workflow Builder step (src/operations/workflowSteps.ts). */
export function registerFunctions(app: App, deps: ListenerDeps): void {
  for (const callbackId of STEP_IDS) app.function(callbackId, workflowStepListener(deps, callbackId));
}
