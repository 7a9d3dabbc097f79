/**
 * The resources of the collaboration API as JSON Schemas, written by hand from spec §2 and
 * SERVICE-FACTS.md, independently of the client's zod schemas (src/collab/schemas.ts) and of the
 * emulator: a second description of the shapes, so the two cannot agree on a misreading.
 * Strict: every field the spec lists is required, nothing else is allowed.
 */
const string = { type: 'string' } as const;
const id = { type: 'string', pattern: '^[0-9a-z]{12}$' } as const;
const timestamp = {
  type: 'string',
  pattern: '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(\\.\\d+)?(Z|[+-]\\d{2}:\\d{2})$',
} as const;
const integer = { type: 'integer', minimum: 0 } as const;
const nullable = (schema: object) => ({ anyOf: [schema, { type: 'null' }] });

const object = (properties: Record<string, object>) => ({
  type: 'object',
  properties,
  required: Object.keys(properties),
  additionalProperties: false,
});

export const SERVICE_SCHEMAS = {
  $id: 'collab-v2',
  $defs: {
    avatarUrls: object({ xs: string, sm: string, base: string, lg: string, xl: string, xxl: string }),
    author: object({
      id,
      name: string,
      avatar_urls: { $ref: '#/$defs/avatarUrls' },
      type: { enum: ['member', 'app'] },
    }),
    channel: object({ id, name: string }),
    comment: object({
      id,
      content: string,
      created_at: timestamp,
      replies_count: integer,
      parent_id: nullable(id),
      subject_id: id,
      subject_type: { const: 'post' },
      author: { $ref: '#/$defs/author' },
    }),
    resolution: object({
      resolved_at: timestamp,
      resolved_html: string,
      resolved_by: { $ref: '#/$defs/author' },
      resolved_comment: nullable({ $ref: '#/$defs/comment' }),
    }),
    post: object({
      id,
      title: string,
      created_at: timestamp,
      last_activity_at: timestamp,
      url: { type: 'string', pattern: '^https?://' },
      content: string,
      comments_count: integer,
      channel: { $ref: '#/$defs/channel' },
      author: { $ref: '#/$defs/author' },
      resolution: nullable({ $ref: '#/$defs/resolution' }),
    }),
    message: object({
      id,
      content: string,
      created_at: timestamp,
      updated_at: timestamp,
      parent_id: nullable(id),
      thread_id: id,
      author: nullable({ $ref: '#/$defs/author' }),
    }),
    thread: object({
      id,
      created_at: timestamp,
      updated_at: timestamp,
      group: { type: 'boolean' },
      last_message_at: nullable(timestamp),
      members_count: integer,
      avatar_urls: nullable({ $ref: '#/$defs/avatarUrls' }),
      title: { type: 'string', maxLength: 80 },
      creator: { $ref: '#/$defs/author' },
    }),
    member: object({
      id,
      role: { enum: ['admin', 'member', 'viewer', 'guest'] },
      created_at: timestamp,
      is_deactivated: { const: false },
      user: object({ id, avatar_urls: { $ref: '#/$defs/avatarUrls' }, email: string, display_name: string }),
    }),
  },
} as const;

export type Resource = keyof (typeof SERVICE_SCHEMAS)['$defs'];

/** The list envelope of spec §2.10 around `item`: every key always there. */
export function envelopeOf(item: Resource): object {
  return object({
    data: { type: 'array', items: { $ref: `collab-v2#/$defs/${item}` } },
    total_count: integer,
    next_cursor: nullable(id),
    prev_cursor: nullable(id),
  });
}
