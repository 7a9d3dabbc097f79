/**
 * A believable, deterministic organization: channels (one private channel the integration was not
 * added to, with a post; one archived channel), members of every role (one deactivated),
 * posts by people across channels with comments and a reply, one resolved post, and one thread
 * with messages. Timestamps are relative to the emulator's clock at seeding time; ids repeat
 * for the same API key.
 */
import type { MemberRole } from '../../collab/schemas.ts';
import type { ChannelRecord, MemberRecord, PostRecord } from './records.ts';
import type { OrgState } from './state.ts';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** `general` first: posts without `channel_id` go to the first channel. */
export const SEED_CHANNELS = [
  'general',
  'engineering',
  'design',
  'support',
  'random',
  'announcements',
  'product',
  'marketing',
] as const;

/** A private channel the integration was not added to: the organization key never sees it. */
export const SEED_PRIVATE_CHANNEL = 'leadership';
/** An archived channel: not listed. */
export const SEED_ARCHIVED_CHANNEL = 'old-projects';

interface SeedMember {
  display_name: string;
  email: string;
  role: MemberRole;
  is_deactivated?: boolean;
  joinedDaysAgo: number;
  seenHoursAgo: number;
}

export const SEED_MEMBERS: readonly SeedMember[] = [
  {
    display_name: 'Ada Lovelace',
    email: 'ada@example.com',
    role: 'admin',
    joinedDaysAgo: 400,
    seenHoursAgo: 1,
  },
  {
    display_name: 'Grace Hopper',
    email: 'grace@example.com',
    role: 'admin',
    joinedDaysAgo: 380,
    seenHoursAgo: 30,
  },
  {
    display_name: 'Alan Turing',
    email: 'alan@example.com',
    role: 'member',
    joinedDaysAgo: 300,
    seenHoursAgo: 3,
  },
  {
    display_name: 'Katherine Johnson',
    email: 'katherine@example.com',
    role: 'member',
    joinedDaysAgo: 250,
    seenHoursAgo: 2,
  },
  {
    display_name: 'Edsger Dijkstra',
    email: 'edsger@example.com',
    role: 'member',
    joinedDaysAgo: 200,
    seenHoursAgo: 50,
  },
  {
    display_name: 'Hedy Lamarr',
    email: 'hedy@example.com',
    role: 'viewer',
    joinedDaysAgo: 150,
    seenHoursAgo: 5,
  },
  {
    display_name: 'Claude Shannon',
    email: 'claude@example.com',
    role: 'viewer',
    joinedDaysAgo: 90,
    seenHoursAgo: 12,
  },
  {
    display_name: 'Emmy Noether',
    email: 'emmy@example.com',
    role: 'guest',
    joinedDaysAgo: 30,
    seenHoursAgo: 8,
  },
  {
    display_name: 'Charles Babbage',
    email: 'charles@example.com',
    role: 'member',
    is_deactivated: true,
    joinedDaysAgo: 500,
    seenHoursAgo: 2000,
  },
];

interface SeedPost {
  channel: (typeof SEED_CHANNELS)[number];
  /** index into SEED_MEMBERS */
  by: number;
  hoursAgo: number;
  title?: string;
  content: string;
  comments?: { by: number; minutesLater: number; content: string; replyTo?: number }[];
}

const SEED_POSTS: readonly SeedPost[] = [
  {
    channel: 'general',
    by: 0,
    hoursAgo: 70,
    title: 'Welcome to the team space',
    content: 'Hello everyone!\n\nThis is where we share updates. Say hi below.',
    comments: [
      { by: 1, minutesLater: 20, content: 'Hi all 👋' },
      { by: 2, minutesLater: 45, content: 'Glad to be here.' },
      { by: 0, minutesLater: 50, content: 'Welcome Alan!', replyTo: 1 },
    ],
  },
  {
    channel: 'general',
    by: 1,
    hoursAgo: 52,
    title: 'Office closed on Friday',
    content: 'The office is closed this Friday for maintenance.',
  },
  {
    channel: 'engineering',
    by: 2,
    hoursAgo: 48,
    title: 'Flaky integration tests',
    content: 'The payment suite fails about 1 run in 20. Anyone seen `ECONNRESET` in CI?',
    comments: [
      { by: 4, minutesLater: 30, content: 'Yes: the mock server closes keep-alive sockets early.' },
      { by: 2, minutesLater: 90, content: 'Confirmed, fixed by retrying idempotent calls.' },
    ],
  },
  {
    channel: 'engineering',
    by: 4,
    hoursAgo: 40,
    title: 'RFC: shortest-path caching',
    content: 'Proposal to cache route computations for 5 minutes.',
  },
  {
    channel: 'engineering',
    by: 3,
    hoursAgo: 26,
    content: 'Deploy of v2.14 is done. Error rate back to normal <0.1%.',
  },
  {
    channel: 'design',
    by: 5,
    hoursAgo: 45,
    title: 'New onboarding flow',
    content: 'Mockups for the three-step onboarding are ready for review.',
    comments: [{ by: 0, minutesLater: 60, content: 'Love step two. Step three feels long.' }],
  },
  {
    channel: 'design',
    by: 6,
    hoursAgo: 20,
    title: 'Icon set v3',
    content: 'Updated icons & a darker palette.',
  },
  {
    channel: 'support',
    by: 7,
    hoursAgo: 36,
    title: 'Customer cannot export CSV',
    content: 'Acme Corp reports the CSV export times out for reports over 10k rows.',
    comments: [{ by: 3, minutesLater: 40, content: 'Raised the export timeout; please ask them to retry.' }],
  },
  {
    channel: 'support',
    by: 1,
    hoursAgo: 12,
    title: 'Weekly support summary',
    content: '42 tickets closed, 3 escalations.',
  },
  { channel: 'random', by: 2, hoursAgo: 30, content: 'Who is up for a chess tournament on Thursday?' },
  {
    channel: 'random',
    by: 6,
    hoursAgo: 8,
    title: 'Juggling club',
    content: 'Three balls, information theory, and snacks.',
  },
  {
    channel: 'announcements',
    by: 0,
    hoursAgo: 60,
    title: 'Quarterly all-hands',
    content: 'All-hands on the 14th at 10:00.',
  },
  {
    channel: 'product',
    by: 3,
    hoursAgo: 16,
    title: 'Roadmap Q3',
    content: 'Draft roadmap:\n- exports\n- SSO\n- mobile',
  },
  {
    channel: 'marketing',
    by: 5,
    hoursAgo: 6,
    title: 'Launch blog post',
    content: 'Draft of the launch post is ready for comments.',
  },
];

/** Index in SEED_POSTS of the post seeded as resolved (with its first comment as resolution). */
const RESOLVED_POST = 2;

export function seedOrg(org: OrgState): void {
  const now = org.now().getTime();
  const at = (msAgo: number) => new Date(now - msAgo);

  const channels: ChannelRecord[] = SEED_CHANNELS.map((name, index) =>
    org.addChannel(name, at((600 - index * 10) * DAY)),
  );
  const members: MemberRecord[] = SEED_MEMBERS.map((member) =>
    org.addMember({
      display_name: member.display_name,
      email: member.email,
      role: member.role,
      is_deactivated: member.is_deactivated ?? false,
      created_at: at(member.joinedDaysAgo * DAY),
      last_seen_at: at(member.seenHoursAgo * HOUR),
    }),
  );
  const author = (index: number) => org.authorOf(pick(members, index));
  const hidden = org.addChannel(SEED_PRIVATE_CHANNEL, at(300 * DAY), { private: true });
  org.addChannel(SEED_ARCHIVED_CHANNEL, at(700 * DAY), { archived: true });

  const posts: PostRecord[] = [];
  for (const seed of SEED_POSTS) {
    const channel = pick(channels, SEED_CHANNELS.indexOf(seed.channel));
    const createdAt = now - seed.hoursAgo * HOUR;
    const post = org.createPost(
      author(seed.by),
      seed.title === undefined
        ? { content_markdown: seed.content, channel_id: channel.id }
        : { content_markdown: seed.content, channel_id: channel.id, title: seed.title },
      new Date(createdAt),
    );
    posts.push(post);
    const commentIds: string[] = [];
    for (const comment of seed.comments ?? []) {
      const parentId = comment.replyTo === undefined ? undefined : commentIds[comment.replyTo];
      const created = org.createComment(
        author(comment.by),
        post.id,
        parentId === undefined
          ? { content_markdown: comment.content }
          : { content_markdown: comment.content, parent_id: parentId },
        new Date(createdAt + comment.minutesLater * MINUTE),
      );
      commentIds.push(created.id);
    }
  }

  // Last, so the first post of the organization is a visible one.
  org.createPost(
    author(0),
    { content_markdown: 'Budget review on Monday.', channel_id: hidden.id, title: 'Budget review' },
    at(10 * HOUR),
  );

  const resolved = pick(posts, RESOLVED_POST);
  const resolvingComment = org.commentsOf(resolved.id)[1];
  org.resolvePost(
    author(2),
    resolved.id,
    resolvingComment === undefined
      ? { content_markdown: 'Fixed.' }
      : { content_markdown: 'Fixed by retrying idempotent calls.', comment_id: resolvingComment.id },
    new Date(now - 46 * HOUR),
  );

  const ada = pick(members, 0);
  const grace = pick(members, 1);
  const alan = pick(members, 2);
  const thread = org.createThread(
    org.authorOf(ada),
    { member_ids: [grace.id, alan.id], title: 'Release planning' },
    at(5 * HOUR),
    ada.id,
  );
  org.createMessage(
    org.authorOf(ada),
    thread.id,
    { content_markdown: 'Can we ship on Tuesday?' },
    at(5 * HOUR),
  );
  const reply = org.createMessage(
    org.authorOf(grace),
    thread.id,
    { content_markdown: 'Tuesday works if the migration is merged.' },
    at(4 * HOUR),
  );
  org.createMessage(
    org.authorOf(alan),
    thread.id,
    { content_markdown: 'It will be, reviewing now.', parent_id: reply.id },
    at(3 * HOUR),
  );
}

function pick<T>(items: readonly T[], index: number): T {
  const item = items[index];
  if (item === undefined) throw new Error(`seed: no item at index ${index}`);
  return item;
}
