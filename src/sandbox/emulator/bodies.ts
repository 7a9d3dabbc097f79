/**
 * Request bodies as the emulator (the "service") validates them. Deliberately separate from
 * the client's input schemas in src/collab/schemas.ts: the emulator models the server, and
 * its rules must not drift when the client changes. Which fields are required is "not shown"
 * in the spec; these follow the real service (SERVICE-FACTS.md). Unknown fields are ignored.
 */
import { z } from 'zod';
import { badRequest, unprocessable } from './http-error.ts';

const text = z.string().refine((value) => value.trim() !== '', { message: 'must not be empty' });
const id = z.string().min(1);

/** A blank `channel_id`, and neither title nor content, are refused by OrgState.createPost (422). */
export const CreatePostBody = z.object({
  content_markdown: z.string().optional(),
  channel_id: z.string().optional(),
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

/** Missing or empty `member_ids` is a 400 `invalid_params`, not a validation failure. */
export function parseThreadBody(input: unknown): CreateThreadBody {
  const ids =
    input !== null && typeof input === 'object' ? (input as Record<string, unknown>).member_ids : undefined;
  if (!Array.isArray(ids) || ids.length === 0)
    throw badRequest('param is missing or the value is empty: member_ids');
  return parseBody(CreateThreadBody, input);
}

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
