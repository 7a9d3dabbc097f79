/**
 * The bot scopes the app asks for at install, each for something the code does. The manifest's
 * `oauth_config.scopes.bot` is this list (test/manifest.test.ts), and the README justifies each.
 */
export const BOT_SCOPES = [
  /** the slash command */
  'commands',
  /** post cards and outcomes (chat.postMessage, chat.postEphemeral, chat.update) */
  'chat:write',
  /** `link` joins the public Slack channel it links (conversations.join) */
  'channels:join',
  /** thread replies under post cards become comments (message.channels / message.groups events) */
  'channels:history',
  'groups:history',
  /** channels that come and go: archive, delete, unarchive, the bot removed or invited back */
  'channels:read',
  'groups:read',
  /** names of mentioned people, and the admin check (users.info is_admin / is_owner) */
  'users:read',
  /** `dm @someone` finds the person's member by the email of their Slack profile */
  'users:read.email',
  /** unfurl links to posts (link_shared event, chat.unfurl) */
  'links:read',
  'links:write',
] as const;
