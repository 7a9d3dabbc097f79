/**
 * The Workflow Builder steps the app contributes (Slack custom steps, `functions` in the
 * manifest): their callback ids, titles and parameters. The listener registers one
 * `app.function` per step, the worker runs it, the manifest declares it (test/manifest.test.ts
 * keeps the two in step) and the sandbox console offers it.
 */

export interface StepParameter {
  name: string;
  /** a Slack parameter type: `string`, `slack#/types/user_id`, `slack#/types/timestamp`, … */
  type: string;
  title: string;
  description: string;
  required: boolean;
  /** an array of `type` */
  array?: boolean;
}

export interface WorkflowStep {
  title: string;
  description: string;
  inputs: StepParameter[];
  outputs: StepParameter[];
}

const text = (name: string, title: string, description: string, required = true): StepParameter => ({
  name,
  type: 'string',
  title,
  description,
  required,
});

const POST = text('post', 'Post', 'The post’s id (shown on its card)');

/** How long "Wait until a post is resolved" waits at most: past it the step fails, saying so. */
export const WAIT_MAX_MS = 7 * 24 * 3600_000;

export const WORKFLOW_STEPS = {
  create_post: {
    title: 'Create a post',
    description: 'Creates a post in a channel of the collaboration service',
    inputs: [
      text('channel', 'Channel', 'The collaboration channel’s name (e.g. engineering)'),
      text('title', 'Title', 'The post’s title', false),
      text('content', 'Content', 'The post’s text (markdown)'),
    ],
    outputs: [
      text('post_id', 'Post id', 'The new post’s id'),
      text('url', 'Post link', 'The new post’s link', false),
    ],
  },
  resolve_post: {
    title: 'Resolve a post',
    description: 'Marks a post of the collaboration service resolved',
    inputs: [POST, text('message', 'Message', 'Why it is resolved', false)],
    outputs: [
      {
        ...text('resolved_at', 'Resolved at', 'When the post was resolved (as the service says)'),
        required: false,
      },
    ],
  },
  comment_on_post: {
    title: 'Comment on a post',
    description: 'Adds a comment to a post of the collaboration service',
    inputs: [
      POST,
      text('text', 'Comment', 'The comment’s text (markdown)'),
      text('parent', 'Reply to', 'The id of the comment this one answers', false),
    ],
    outputs: [text('comment_id', 'Comment id', 'The new comment’s id')],
  },
  message_members: {
    title: 'Message members',
    description: 'Sends a message to Slack users’ members (matched by email) in a thread of the service',
    inputs: [
      {
        name: 'users',
        type: 'slack#/types/user_id',
        array: true,
        title: 'People',
        description: 'Slack users; each is found in the service by the email of their Slack profile',
        required: true,
      },
      text('text', 'Message', 'The message (markdown)'),
    ],
    outputs: [text('thread_id', 'Thread id', 'The thread the message went to')],
  },
  wait_until_resolved: {
    title: 'Wait until a post is resolved',
    description: 'Waits (up to 7 days) until a post of the collaboration service is resolved',
    inputs: [POST],
    outputs: [
      text('resolved_at', 'Resolved at', 'When the post was resolved (as the service says)', false),
      text('resolved_by', 'Resolved by', 'Who resolved it', false),
    ],
  },
} as const satisfies Record<string, WorkflowStep>;

export type StepId = keyof typeof WORKFLOW_STEPS;
export const STEP_IDS = Object.keys(WORKFLOW_STEPS) as StepId[];

export function isStepId(id: string): id is StepId {
  return Object.hasOwn(WORKFLOW_STEPS, id);
}
