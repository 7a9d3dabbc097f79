/** The processor of each operation. */
import type { Processors } from '../context.ts';

const notYet = async () => {
  throw new Error('not implemented');
};

export const processors: Processors = {
  createPost: notYet,
  resolvePost: notYet,
  unresolvePost: notYet,
  createComment: notYet,
  sendDm: notYet,
  listPosts: notYet,
  listChannels: notYet,
  listMembers: notYet,
  listMessages: notYet,
  linkChannel: notYet,
  unlinkChannel: notYet,
};
