/** The processor of each operation. */
import type { Processors } from '../context.ts';
import { addDigest } from './addDigest.ts';
import { createComment } from './createComment.ts';
import { createPost } from './createPost.ts';
import { flushNotifications } from './flushNotifications.ts';
import { followChannel } from './followChannel.ts';
import { linkChannel } from './linkChannel.ts';
import { listChannels } from './listChannels.ts';
import { listDigests } from './listDigests.ts';
import { listFollows } from './listFollows.ts';
import { listMembers } from './listMembers.ts';
import { listMessages } from './listMessages.ts';
import { listPosts } from './listPosts.ts';
import { pollFeed } from './pollFeed.ts';
import { pollThread } from './pollThread.ts';
import { publishHome } from './publishHome.ts';
import { removeDigest } from './removeDigest.ts';
import { resolvePost } from './resolvePost.ts';
import { runDigest } from './runDigest.ts';
import { sendDigest } from './sendDigest.ts';
import { sendDm } from './sendDm.ts';
import { setNotify } from './setNotify.ts';
import { slackChannelChanged } from './slackChannelChanged.ts';
import { unfollowChannel } from './unfollowChannel.ts';
import { unfurlLinks } from './unfurlLinks.ts';
import { unlinkChannel } from './unlinkChannel.ts';
import { unresolvePost } from './unresolvePost.ts';
import { checkWorkflowWait, runWorkflowStep } from './workflowSteps.ts';

export const processors: Processors = {
  createPost,
  resolvePost,
  unresolvePost,
  createComment,
  sendDm,
  listPosts,
  listChannels,
  listMembers,
  listMessages,
  linkChannel,
  unlinkChannel,
  addDigest,
  listDigests,
  removeDigest,
  runDigest,
  sendDigest,
  unfurlLinks,
  publishHome,
  followChannel,
  listFollows,
  unfollowChannel,
  pollFeed,
  pollThread,
  slackChannelChanged,
  runWorkflowStep,
  checkWorkflowWait,
  setNotify,
  flushNotifications,
};
