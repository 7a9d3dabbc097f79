/**
 * Every Redis key the app writes, in one place. Keys are scoped by Slack team, so two
 * workspaces never read each other's state, and by the configured prefix.
 */
export interface KeySpace {
  prefix: string;
}

const enc = (part: string) => part.replace(/[:\s]/g, '_');

export function keys(space: KeySpace, teamId: string) {
  const t = `${space.prefix}:t:${enc(teamId)}`;
  return {
    team: t,
    /** the idempotency claim of one operation */
    claim: (key: string) => `${t}:claim:${key}`,
    /** the collaboration channel linked to a Slack channel */
    link: (slackChannel: string) => `${t}:link:${enc(slackChannel)}`,
    links: () => `${t}:links`,
    /** the post a Slack message shows (a post card, or a message that quoted a post url) */
    messagePost: (slackChannel: string, ts: string) => `${t}:msgpost:${enc(slackChannel)}:${ts}`,
    /** the Slack messages (cards) that show a post */
    postCards: (postId: string) => `${t}:postcards:${postId}`,
    /** the comment a Slack reply became */
    replyComment: (slackChannel: string, ts: string) => `${t}:replycmt:${enc(slackChannel)}:${ts}`,
    /** url -> post id, for urls the bot has seen in API responses */
    url: (urlHash: string) => `${t}:url:${urlHash}`,
    /** the thread the bot made for a set of members */
    dmThread: (membersHash: string) => `${t}:dm:${membersHash}`,
    /** where a thread the bot made came from in Slack */
    threadOrigin: (threadId: string) => `${t}:thread:${threadId}`,
    /** a list's paging state, when it is too long for a button value */
    pageState: (id: string) => `${t}:page:${id}`,
    /** short caches: Slack profiles, option lists */
    cache: (name: string) => `${t}:cache:${name}`,
    /** the user's recent operations and their outcome */
    recent: (userId: string) => `${t}:recent:${enc(userId)}`,
  };
}

export type TeamKeys = ReturnType<typeof keys>;
