/**
 * The contract, proven twice: every operation of the client against the emulator over real HTTP,
 * each answer checked by the client's zod schemas (the client validates every answer) and by an
 * independent, strict JSON Schema per resource (test/support/serviceSchemas.ts, written from spec
 * §2 and SERVICE-FACTS.md), validated with ajv.
 */
import { Ajv, type ValidateFunction } from 'ajv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CollabClient, createCollabClient } from '../../src/collab/client.ts';
import {
  ChannelPage,
  Comment,
  MemberPage,
  Message,
  MessagePage,
  Post,
  PostPage,
  Thread,
} from '../../src/collab/schemas.ts';
import { type Emulator, startEmulator } from '../../src/sandbox/emulator/index.ts';
import { envelopeOf, type Resource, SERVICE_SCHEMAS } from '../support/serviceSchemas.ts';

const ajv = new Ajv({ allErrors: true, strict: true });
ajv.addSchema(SERVICE_SCHEMAS);
const one = (resource: Resource): ValidateFunction => ajv.compile({ $ref: `collab-v2#/$defs/${resource}` });
const page = (resource: Resource): ValidateFunction => ajv.compile(envelopeOf(resource));

function conforms(validate: ValidateFunction, value: unknown): void {
  const valid = validate(value);
  expect(valid ? [] : ajv.errorsText(validate.errors, { separator: '\n' }).split('\n')).toEqual([]);
}

let emulator: Emulator;
let client: CollabClient;
/** Every answer the client gave, by operation: all are checked against the JSON Schemas. */
const answers: { operation: string; resource: Resource; list: boolean; value: unknown }[] = [];

beforeAll(async () => {
  emulator = await startEmulator();
  client = createCollabClient({ baseUrl: emulator.url, apiKey: emulator.apiKey });
});
afterAll(async () => {
  await client?.close();
  await emulator?.close();
});

async function collect<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of iterable) out.push(item);
  return out;
}

describe('the client against the emulator, answers checked by two descriptions', () => {
  it('drives every operation and every page walk', async () => {
    const record = (operation: string, resource: Resource, list: boolean, value: unknown) => {
      answers.push({ operation, resource, list, value });
      return value;
    };
    const channels = await client.listChannels({ sort: 'name', direction: 'asc', limit: 3 });
    record('listChannels', 'channel', true, channels);
    const general = (await client.listChannels({ name: 'general' })).data[0];
    if (!general) throw new Error('no general channel');
    const members = await client.listMembers({ roles: ['admin', 'member'], search: 'a', limit: 2 });
    record('listMembers', 'member', true, members);
    const ada = (await client.listMembers({ search: 'ada@example.com' })).data[0];
    if (!ada) throw new Error('no Ada');

    const created = await client.createPost({
      channel_id: general.id,
      content_markdown: '# Contract\n\nWith **bold**, [a link](https://example.com) and @Ada Lovelace',
    });
    record('createPost', 'post', false, created);
    const untitled = await client.createPost({ channel_id: general.id, content_markdown: 'plain' });
    record('createPost', 'post', false, untitled);
    record('getPost', 'post', false, await client.getPost(created.id));
    const comment = await client.createComment(created.id, { content_markdown: 'A comment' });
    record('createComment', 'comment', false, comment);
    record(
      'createComment',
      'comment',
      false,
      await client.createComment(created.id, { content_markdown: 'A reply', parent_id: comment.id }),
    );
    record('resolvePost', 'post', false, await client.resolvePost(created.id));
    record(
      'resolvePost',
      'post',
      false,
      await client.resolvePost(created.id, { content_markdown: 'Done', comment_id: comment.id }),
    );
    record('unresolvePost', 'post', false, await client.unresolvePost(created.id));
    record('unresolvePost', 'post', false, await client.unresolvePost(created.id));
    record('listPosts', 'post', true, await client.listPosts({ channelId: general.id, limit: 2 }));
    record(
      'listPosts',
      'post',
      true,
      await client.listPosts({ sort: 'last_activity_at', direction: 'desc', limit: 50 }),
    );

    const thread = await client.createThread({ member_ids: [ada.id, 'zzzzzzzzzzzz'] });
    record('createThread', 'thread', false, thread);
    record(
      'createThread',
      'thread',
      false,
      await client.createThread({ member_ids: [ada.id], title: 'Named' }),
    );
    const message = await client.createMessage(thread.id, { content_markdown: 'Hello **there**' });
    record('createMessage', 'message', false, message);
    record(
      'createMessage',
      'message',
      false,
      await client.createMessage(thread.id, { content_markdown: 'Reply', parent_id: message.id }),
    );
    record('listMessages', 'message', true, await client.listMessages(thread.id, { limit: 1 }));

    for (const post of await collect(client.allPosts({ limit: 5 }))) record('allPosts', 'post', false, post);
    for (const item of await collect(client.allMessages(thread.id, { limit: 1 }))) {
      record('allMessages', 'message', false, item);
    }
    for (const member of await collect(client.allMembers({ limit: 3 })))
      record('allMembers', 'member', false, member);
    for (const channel of await collect(client.allChannels({ limit: 3 }))) {
      record('allChannels', 'channel', false, channel);
    }

    const operations = new Set(answers.map((answer) => answer.operation));
    expect([...operations].sort()).toEqual(
      [
        'createComment',
        'createMessage',
        'createPost',
        'createThread',
        'getPost',
        'listChannels',
        'listMembers',
        'listMessages',
        'listPosts',
        'resolvePost',
        'unresolvePost',
        'allPosts',
        'allMessages',
        'allMembers',
        'allChannels',
      ].sort(),
    );
  });

  it('every answer conforms to the independent JSON Schema of its resource', () => {
    expect(answers.length).toBeGreaterThan(30);
    const validators = new Map<string, ValidateFunction>();
    for (const answer of answers) {
      const key = `${answer.resource}:${answer.list}`;
      let validate = validators.get(key);
      if (!validate) {
        validate = answer.list ? page(answer.resource) : one(answer.resource);
        validators.set(key, validate);
      }
      conforms(validate, answer.value);
    }
  });

  it('every answer also parses with the client zod schemas as they are (no field lost)', () => {
    const zod = {
      post: [Post, PostPage],
      comment: [Comment, undefined],
      thread: [Thread, undefined],
      message: [Message, MessagePage],
      member: [undefined, MemberPage],
      channel: [undefined, ChannelPage],
    } as const;
    for (const answer of answers) {
      const schema = zod[answer.resource as keyof typeof zod]?.[answer.list ? 1 : 0];
      if (!schema) continue;
      expect(schema.parse(answer.value)).toEqual(answer.value);
    }
  });

  it('the JSON Schemas refuse what the old emulator answered', () => {
    const post = answers.find((answer) => answer.operation === 'createPost')?.value as Record<
      string,
      unknown
    >;
    const author = post.author as Record<string, unknown>;
    const validate = one('post');
    for (const wrong of [
      { ...post, title: null },
      { ...post, author: { ...author, type: 'user' } },
      {
        ...post,
        resolution: {
          resolved_at: post.created_at,
          resolved_html: null,
          resolved_by: author,
          resolved_comment: null,
        },
      },
    ]) {
      expect(validate(wrong)).toBe(false);
    }
    const comment = answers.find((answer) => answer.operation === 'createComment')?.value as object;
    expect(one('comment')({ ...comment, subject_type: 'Post' })).toBe(false);
  });
});
