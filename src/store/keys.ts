/**
 * Every Redis key the app writes, in one place. Keys are scoped by Slack team, so two
 * workspaces never read each other's state, and by the configured prefix.
 *
 * On a Redis Cluster (`hashTags`) the team is the key's hash tag — `cs:t:{T123}:…` — so every
 * key of one workspace is in one slot and a command, script or MULTI over several of them works.
 * One Redis keeps the untagged names it always had (`cs:t:T123:…`).
 */
export interface KeySpace {
  prefix: string;
  /** a Redis Cluster: tag keys so that those used together share a slot */
  hashTags?: boolean | undefined;
}

const enc = (part: string) => part.replace(/[:\s]/g, '_');
/** A key part as a hash tag (the braces of a tag cannot appear inside it). */
const tag = (space: KeySpace, part: string) =>
  space.hashTags ? `{${enc(part).replace(/[{}]/g, '_')}}` : enc(part);

/**
 * The keys of one team. A class, not an object of closures: a worker builds these for every
 * operation, and its methods live once on the prototype (call them on the object, e.g.
 * `keys(space, teamId).postCards(postId)`).
 */
export class TeamKeys {
  /** every key of the team starts with this */
  readonly team: string;

  constructor(space: KeySpace, teamId: string) {
    this.team = `${space.prefix}:t:${tag(space, teamId)}`;
  }

  /** the collaboration channel linked to a Slack channel */
  link(slackChannel: string): string {
    return `${this.team}:link:${enc(slackChannel)}`;
  }
  links(): string {
    return `${this.team}:links`;
  }
  /** the post a Slack message shows (a post card, or a message that quoted a post url) */
  messagePost(slackChannel: string, ts: string): string {
    return `${this.team}:msgpost:${enc(slackChannel)}:${ts}`;
  }
  /** the Slack messages (cards) that show a post */
  postCards(postId: string): string {
    return `${this.team}:postcards:${postId}`;
  }
  /** the Slack messages whose link to a post the bot unfurled: `channel|ts|url` */
  postUnfurls(postId: string): string {
    return `${this.team}:postunfurls:${postId}`;
  }
  /** the job whose comment on a post is being sent or is in doubt (see jobs/commentLease.ts) */
  commentLease(postId: string): string {
    return `${this.team}:cmtlease:${enc(postId)}`;
  }
  /** the comment a Slack reply became */
  replyComment(slackChannel: string, ts: string): string {
    return `${this.team}:replycmt:${enc(slackChannel)}:${ts}`;
  }
  /** url -> post id, for urls the bot has seen in API responses */
  url(urlHash: string): string {
    return `${this.team}:url:${urlHash}`;
  }
  /** the thread the bot made for a set of members */
  dmThread(membersHash: string): string {
    return `${this.team}:dm:${membersHash}`;
  }
  /** where a thread the bot made came from in Slack */
  threadOrigin(threadId: string): string {
    return `${this.team}:thread:${threadId}`;
  }
  /** a list's paging state, when it is too long for a button value */
  pageState(id: string): string {
    return `${this.team}:page:${id}`;
  }
  /** short caches: Slack profiles, option lists */
  cache(name: string): string {
    return `${this.team}:cache:${name}`;
  }
  /** the user's recent operations and their outcome */
  recent(userId: string): string {
    return `${this.team}:recent:${enc(userId)}`;
  }
  /** a followed Slack channel's feed: its collaboration channel and watermark (JSON) */
  feed(slackChannel: string): string {
    return `${this.team}:feed:${enc(slackChannel)}`;
  }
  /** posts carded in a followed Slack channel: post id -> claim, then card ts (HASH) */
  feedCarded(slackChannel: string): string {
    return `${this.team}:feedcarded:${enc(slackChannel)}`;
  }
  /** carded posts a feed re-reads by id (their resolution moves no list order): post id -> JSON (HASH) */
  feedWatch(slackChannel: string): string {
    return `${this.team}:feedwatch:${enc(slackChannel)}`;
  }
  /** the state of a post its cards last showed (resolution, comments), to tell what changed */
  postState(postId: string): string {
    return `${this.team}:poststate:${postId}`;
  }
  /** the claim of announcing one state of a post under its cards */
  postAnnounced(postId: string, version: string): string {
    return `${this.team}:announced:${postId}:${version}`;
  }
  /** a mirrored thread: watermark, last activity, polling interval (HASH) */
  mirror(threadId: string): string {
    return `${this.team}:mirror:${threadId}`;
  }
  /** messages of a thread mirrored into Slack: message id -> claim, then Slack ts (HASH) */
  mirrored(threadId: string): string {
    return `${this.team}:mirrored:${threadId}`;
  }
  /** ids of the messages the bot itself wrote in a thread (never mirrored back) */
  sentMessages(threadId: string): string {
    return `${this.team}:sentmsgs:${threadId}`;
  }
  /** the thread message a mirrored Slack message shows */
  mirrorMessage(slackChannel: string, ts: string): string {
    return `${this.team}:mirrormsg:${enc(slackChannel)}:${ts}`;
  }
  /** the thread a Slack thread (where a DM was sent from) talks to */
  conversationThread(slackChannel: string, threadTs: string): string {
    return `${this.team}:convthread:${enc(slackChannel)}:${threadTs}`;
  }
  /** the workspace's Slack installation (sealed: it holds the bot token) */
  installation(): string {
    return `${this.team}:installation`;
  }
  /** the enterprise whose org-wide installation serves this workspace */
  enterprise(): string {
    return `${this.team}:enterprise`;
  }
  /** the connection to the collaboration service (base url, sealed API key) */
  connection(): string {
    return `${this.team}:connection`;
  }
  /** who changed which setting when, newest first, capped */
  audit(): string {
    return `${this.team}:audit`;
  }
  /** a digest of a Slack channel (JSON), the team's digest ids, and the id sequence */
  digest(digestId: string): string {
    return `${this.team}:digest:${enc(digestId)}`;
  }
  digests(): string {
    return `${this.team}:digests`;
  }
  digestSeq(): string {
    return `${this.team}:digestseq`;
  }
  /** the end of the window the last posted digest covered (epoch ms) */
  digestLast(digestId: string): string {
    return `${this.team}:digestlast:${enc(digestId)}`;
  }
  /** posts a digest re-reads by id (postId -> JSON: last read, resolution known) (HASH) */
  digestWatch(digestId: string): string {
    return `${this.team}:digestwatch:${enc(digestId)}`;
  }
  /** the claim of one scheduled slot of a digest: it is posted at most once */
  digestSlot(digestId: string, slot: number): string {
    return `${this.team}:digestslot:${enc(digestId)}:${slot}`;
  }
  /** Slack channels archived, deleted or left by the bot, and back: slackChannel -> state (HASH) */
  slackChannelStates(): string {
    return `${this.team}:slackchanstates`;
  }
  /** a Workflow Builder step waiting for a post's resolution (JSON; holds the execution's token) */
  workflowWait(executionId: string): string {
    return `${this.team}:wfwait:${enc(executionId)}`;
  }
  /** personal notifications: userId -> settings (HASH) */
  notifySettings(): string {
    return `${this.team}:notify`;
  }
  /** the Slack user who created a post from Slack */
  postCreator(postId: string): string {
    return `${this.team}:postcreator:${postId}`;
  }
  /** notifications held during a person's quiet hours (LIST of JSON) */
  notifyHeld(userId: string): string {
    return `${this.team}:notifyheld:${enc(userId)}`;
  }
}

export function keys(space: KeySpace, teamId: string): TeamKeys {
  return new TeamKeys(space, teamId);
}

/** Keys of an Enterprise Grid organisation (org-wide installs). */
export function enterpriseKeys(space: KeySpace, enterpriseId: string) {
  const e = `${space.prefix}:e:${tag(space, enterpriseId)}`;
  return {
    enterprise: e,
    installation: () => `${e}:installation`,
  };
}

/**
 * Keys kept beside a queue shard's own (BullMQ's `<prefix>:<queue>`), in its slot: read by one
 * script together with the queue's job hashes.
 */
export function queueKeys(queueKey: string) {
  return {
    /**
     * as `keys().commentLease`, on a cluster (one Redis keeps the team's key): the job whose
     * comment on a post is being sent or is in doubt
     */
    commentLease: (teamId: string, postId: string) => `${queueKey}:cmtlease:${enc(teamId)}:${enc(postId)}`,
    /**
     * outcomes told after their job completed, not yet confirmed told: job id -> when marked, or
     * when its worker last said it is still telling (ZSET; engine/tellAfterCompletion.ts)
     */
    tellings: () => `${queueKey}:tellings`,
    /** what each of those tells: job id -> JSON `{ origin, message }` (HASH) */
    tellingMessages: () => `${queueKey}:tellings:msg`,
    /**
     * the claim of a sweep on a job that stalled out at `at` (engine/stalledSweep.ts): one
     * sweeping process settles it
     */
    sweptClaim: (jobId: string, at: string) => `${queueKey}:${jobId}:swept:${at}`,
  };
}

/** Keys of the app as a whole, not of one team. */
export function appKeys(space: KeySpace) {
  return {
    /** an OAuth state already used at the callback: a second use is a replay */
    oauthStateUsed: (nonce: string) => `${space.prefix}:oauth:used:${enc(nonce)}`,
  };
}

/** The pattern that matches every key of one team (SCAN MATCH); `team` itself matches too. */
export function teamPattern(space: KeySpace, teamId: string): string {
  const glob = (text: string) => text.replace(/[*?[\]\\]/g, (c) => `\\${c}`);
  return `${glob(keys(space, teamId).team)}:*`;
}
