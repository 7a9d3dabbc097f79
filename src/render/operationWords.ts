/** An operation (job name) in the words of a sentence: "Could not <what>", "I will <what> again". */
const WHAT: Record<string, string> = {
  createPost: 'create the post',
  resolvePost: 'resolve the post',
  unresolvePost: 'reopen the post',
  createComment: 'add the comment',
  sendDm: 'send the message',
  listPosts: 'list posts',
  listChannels: 'list channels',
  listMembers: 'list members',
  listMessages: 'list the thread',
  linkChannel: 'link the channel',
  unlinkChannel: 'unlink the channel',
  addDigest: 'schedule the digest',
  listDigests: 'list the digests',
  removeDigest: 'remove the digest',
  runDigest: 'make the digest',
  sendDigest: 'post the digest',
  unfurlLinks: 'show the link',
  publishHome: 'show App Home',
  followChannel: 'follow the channel',
  listFollows: 'list the followed channels',
  unfollowChannel: 'stop following the channel',
  pollFeed: 'check the channel for news',
  pollThread: 'check the thread for replies',
  setNotify: 'change your notifications',
  flushNotifications: 'send your held notifications',
  runWorkflowStep: 'run the workflow step',
  checkWorkflowWait: 'check whether the post is resolved',
  slackChannelChanged: 'pause or resume the channel’s feed and digests',
};

export function describeOperation(operation: string): string {
  return WHAT[operation] ?? 'do that';
}

/** Words between an operation and what it acted on, where its words alone do not lead there. */
const TO_SUBJECT: Record<string, string> = { createComment: ' to', sendDm: ' to' };

/** An operation and what it acted on (mrkdwn): "resolve the post *Launch*", "send the message to *Grace*". */
export function describeOperationOn(operation: string, subject: string): string {
  return `${describeOperation(operation)}${TO_SUBJECT[operation] ?? ''} ${subject}`;
}
