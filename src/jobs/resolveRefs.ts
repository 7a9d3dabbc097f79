/**
 * From what the person named to what the service knows: a PostRef to a post id, a ChannelRef
 * to a channel. Unknown names are the person's to fix, so they are UserErrors.
 */
import { type CollabError, isCollabError } from '../collab/errors.ts';
import type { Channel } from '../collab/schemas.ts';
import { UserError } from '../engine/index.ts';
import type { ChannelRef, Origin, PostRef } from '../operations/schemas.ts';
import { escapeMrkdwn } from '../render/text.ts';
import { commandOf, type ProcessorContext } from './context.ts';

/** The post id of a ref: an id as it is, a url only if the bot has seen it in an API answer. */
export async function resolvePostId(ctx: ProcessorContext, ref: PostRef): Promise<string> {
  if ('id' in ref) return ref.id;
  const id = await ctx.store.urls.postOfUrl(ctx.teamId, ref.url);
  if (id === undefined) {
    throw new UserError('I have not seen that link yet — use the post id (shown on its card).');
  }
  return id;
}

/** A channel name as people type it: `#Engineering ` is `engineering`. */
export function channelName(name: string): string {
  return name.trim().replace(/^#/, '').trim();
}

/**
 * The channel a ref names. By name: the first channel whose name matches exactly, ignoring
 * case (the service's name filter may match more loosely, so every page is checked). By id:
 * the channel with that id, to learn its name.
 */
export async function resolveChannel(ctx: ProcessorContext, ref: ChannelRef): Promise<Channel> {
  if ('id' in ref) {
    for await (const channel of ctx.collab.allChannels({ limit: 50 })) {
      if (channel.id === ref.id) return channel;
    }
    throw new UserError(
      `There is no channel with id ${code(ref.id)}. See the channels with \`${commandOf(ctx)} channels\`.`,
    );
  }
  const wanted = channelName(ref.name);
  const lower = wanted.toLowerCase();
  for await (const channel of ctx.collab.allChannels({ name: wanted, limit: 50 })) {
    if (channel.name.toLowerCase() === lower) return channel;
  }
  throw new UserError(
    `There is no channel named #${escapeMrkdwn(wanted)}. See the channels with \`${commandOf(ctx)} channels\`.`,
  );
}

/** True for a 404 of the service. */
export function isNotFound(error: unknown): error is CollabError {
  return isCollabError(error) && error.reason === 'notFound';
}

/** Runs `call`; a 404 resolves to undefined (the caller decides what a missing thing means). */
export async function ifFound<T>(call: () => Promise<T>): Promise<T | undefined> {
  try {
    return await call();
  } catch (error) {
    if (isNotFound(error)) return undefined;
    throw error;
  }
}

/** Runs `call`; a 404 becomes a UserError with `words` (made only then). */
export async function orNotFound<T>(call: () => Promise<T>, words: () => string): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (isNotFound(error)) throw new UserError(words());
    throw error;
  }
}

/** "No post with id `X`.": the bare fact (a workflow step's error, read by its builder). */
export function noPost(postId: string): string {
  return `No post with id ${code(postId)}.`;
}

/**
 * The same where the person typed the id, with where a post's id is found; a card's button or a
 * reply under a card names its post itself (gone from the service): the bare fact.
 */
export function noPostFor(ctx: ProcessorContext, postId: string, origin: Origin): string {
  if (origin.source !== 'command') return noPost(postId);
  return `${noPost(postId)} Check the id on the post's card, or list posts with \`${commandOf(ctx)} posts\`.`;
}

/** "No thread with id `X`." */
export function noThread(threadId: string): string {
  return `No thread with id ${code(threadId)}.`;
}

/**
 * The same where the person typed the id, with where a thread's id is found (no command lists
 * threads: it is in the note of the `dm` that started the thread).
 */
export function noThreadFor(ctx: ProcessorContext, threadId: string, origin: Origin): string {
  if (origin.source !== 'command') return noThread(threadId);
  return `${noThread(threadId)} A thread's id is in the note of the \`${commandOf(ctx)} dm\` that started it.`;
}

/** Text the person typed shown as inline code: escaped, and no backtick can end it early. */
export function code(text: string): string {
  return `\`${escapeMrkdwn(text.replace(/`/g, "'"))}\``;
}
