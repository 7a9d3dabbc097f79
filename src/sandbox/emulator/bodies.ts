/**
 * Request bodies as the emulator (the "service") validates them. Deliberately separate from
 * the client's input schemas in src/collab/schemas.ts: the emulator models the server, and
 * its rules must not drift when the client changes. Which fields are required is "not shown"
 * in the spec; these are the emulator's choices. Unknown fields are ignored.
 */
import { z } from 'zod';
import { unprocessable } from './http-error.ts';

const text = z.string().refine((value) => value.trim() !== '', { message: 'must not be empty' });
const id = z.string().min(1);

export const CreatePostBody = z.object({
  content_markdown: text,
  channel_id: id.optional(),
  title: z.string().optional(),
});
export type CreatePostBody = z.infer<typeof CreatePostBody>;

export const ResolvePostBody = z.object({
  content_markdown: z.string().optional(),
  comment_id: id.optional(),
});
export type ResolvePostBody = z.infer<typeof ResolvePostBody>;

export const CreateCommentBody = z.object({
  content_markdown: text,
  parent_id: id.optional(),
});
export type CreateCommentBody = z.infer<typeof CreateCommentBody>;

export const CreateThreadBody = z.object({
  member_ids: z.array(id).min(1),
  title: z.string().optional(),
});
export type CreateThreadBody = z.infer<typeof CreateThreadBody>;

export const CreateMessageBody = z.object({
  content_markdown: text,
  parent_id: id.optional(),
});
export type CreateMessageBody = z.infer<typeof CreateMessageBody>;

/** Readable one-line summary of a zod failure, e.g. `content_markdown: must not be empty`. */
export function describeIssues(error: z.ZodError): string {
  return error.issues
    .map((issue) => (issue.path.length > 0 ? `${issue.path.join('.')}: ${issue.message}` : issue.message))
    .join('; ');
}

/** Validates a request body; a failure is a 422 naming the offending fields. */
export function parseBody<S extends z.ZodType>(schema: S, input: unknown): z.infer<S> {
  const result = schema.safeParse(input);
  if (!result.success) throw unprocessable(describeIssues(result.error));
  return result.data;
}
