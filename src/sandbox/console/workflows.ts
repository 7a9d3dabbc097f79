/**
 * The console's Workflows panel: the app's Workflow Builder steps (src/operations/workflowSteps.ts),
 * run as Slack runs them — a signed `function_executed` with the inputs and the execution's own
 * token — and what came back through the stand-in's `functions.completeSuccess` / `completeError`.
 */
import { z } from 'zod';
import { WORKFLOW_STEPS } from '../../operations/workflowSteps.ts';
import { functionExecuted } from '../slack/payloads.ts';
import type { SlackStandIn } from '../slack/types.ts';

export const RunStepBody = z.object({
  callbackId: z.string().min(1),
  inputs: z.record(z.string(), z.unknown()),
});

interface Run {
  executionId: string;
  callbackId: string;
  title: string;
  inputs: Record<string, unknown>;
  sentAt: number;
  /** the bot's HTTP answer to the event */
  status: number;
}

export interface WorkflowsPanel {
  list(): {
    steps: Array<{
      callbackId: string;
      title: string;
      description: string;
      inputs: unknown[];
      outputs: unknown[];
    }>;
    runs: Array<Run & { outcome?: { ok: true; outputs: unknown } | { ok: false; error: string } }>;
  };
  run(input: z.infer<typeof RunStepBody>): Promise<{ ok: boolean; executionId?: string; error?: string }>;
}

const MAX_RUNS = 20;

export function workflowsPanel(
  slack: SlackStandIn,
  sendEvent: (event: { type: string }) => Promise<{ status: number }>,
): WorkflowsPanel {
  const runs: Run[] = [];
  return {
    list() {
      const outcomeOf = (executionId: string) => {
        const call = slack.calls.find(
          (c) => c.method.startsWith('functions.complete') && c.args.function_execution_id === executionId,
        );
        if (!call) return undefined;
        return call.method === 'functions.completeSuccess'
          ? { ok: true as const, outputs: call.args.outputs }
          : { ok: false as const, error: String(call.args.error ?? '') };
      };
      return {
        steps: Object.entries(WORKFLOW_STEPS).map(([callbackId, step]) => ({
          callbackId,
          title: step.title,
          description: step.description,
          inputs: [...step.inputs],
          outputs: [...step.outputs],
        })),
        runs: runs.map((r) => {
          const outcome = outcomeOf(r.executionId);
          return outcome ? { ...r, outcome } : r;
        }),
      };
    },
    async run(input) {
      if (!Object.hasOwn(WORKFLOW_STEPS, input.callbackId)) {
        return { ok: false, error: `no step ${input.callbackId}` };
      }
      const step = WORKFLOW_STEPS[input.callbackId as keyof typeof WORKFLOW_STEPS];
      const event = functionExecuted({
        callbackId: input.callbackId,
        title: step.title,
        inputs: input.inputs,
      });
      const answer = await sendEvent(event);
      runs.unshift({
        executionId: event.function_execution_id,
        callbackId: input.callbackId,
        title: step.title,
        inputs: input.inputs,
        sentAt: Date.now(),
        status: answer.status,
      });
      runs.length = Math.min(runs.length, MAX_RUNS);
      return { ok: answer.status === 200, executionId: event.function_execution_id };
    },
  };
}
