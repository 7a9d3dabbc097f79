/**
 * What Slack does to text typed in its composer before an app sees it: `&`, `<`, `>` escaped,
 * links wrapped, and `@someone` / `#channel` turned into mentions (`<@U123|name>` in slash
 * commands, whose manifest sets `should_escape`; `<@U123>` in messages). Pure functions.
 */

export interface ComposeUser {
  id: string;
  name: string;
  real_name?: string;
  profile?: { display_name?: string };
}

export interface ComposeChannel {
  id: string;
  name: string;
}

export type ComposeKind = 'command' | 'message';

function escapeSlack(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function userByHandle(users: readonly ComposeUser[], handle: string): ComposeUser | undefined {
  const wanted = handle.toLowerCase();
  return users.find(
    (u) =>
      u.id.toLowerCase() === wanted ||
      u.name.toLowerCase() === wanted ||
      u.profile?.display_name?.toLowerCase() === wanted,
  );
}

/** Text as Slack hands it to the app: escaped, with mentions of known people and channels. */
export function slackifyText(
  text: string,
  users: readonly ComposeUser[],
  channels: readonly ComposeChannel[],
  kind: ComposeKind,
): string {
  const escaped = escapeSlack(text);
  // One pass over links, @people and #channels, each preceded by the start or a space/paren.
  return escaped.replace(
    /(^|[\s(])(?:(https?:\/\/[^\s<>]+)|@([A-Za-z0-9._-]+)|#([a-z0-9_-]+))/g,
    (whole, lead: string, url?: string, handle?: string, channelName?: string) => {
      if (url !== undefined) return `${lead}<${url}>`;
      if (handle !== undefined) {
        const user = userByHandle(users, handle);
        if (user === undefined) return whole;
        return kind === 'command' ? `${lead}<@${user.id}|${user.name}>` : `${lead}<@${user.id}>`;
      }
      if (channelName !== undefined) {
        const channel = channels.find((c) => c.name === channelName);
        if (channel === undefined) return whole;
        return `${lead}<#${channel.id}|${channel.name}>`;
      }
      return whole;
    },
  );
}

/** `/collab dm @grace hi` → `{ command: '/collab', text: 'dm @grace hi' }`; undefined for plain text. */
export function splitSlashCommand(input: string): { command: string; text: string } | undefined {
  const match = /^(\/[a-z0-9_-]+)(?:\s+([\s\S]*))?$/i.exec(input.trim());
  if (!match) return undefined;
  return { command: match[1]!.toLowerCase(), text: (match[2] ?? '').trim() };
}

/**
 * The links of Slack text (`<https://…>` or `<https://…|label>`) whose host is one of the app's
 * unfurl domains or under one: those Slack sends to the app in `link_shared`.
 */
export function unfurlableLinks(slackText: string, domains: readonly string[]): string[] {
  const wanted = domains.map((d) => d.toLowerCase().replace(/^\*\./, ''));
  const links: string[] = [];
  for (const match of slackText.matchAll(/<(https?:\/\/[^|>\s]+)(?:\|[^>]*)?>/g)) {
    const url = match[1]!.replace(/&amp;/g, '&');
    let host: string;
    try {
      host = new URL(url).hostname.toLowerCase();
    } catch {
      continue;
    }
    if (wanted.some((d) => host === d || host.endsWith(`.${d}`)) && !links.includes(url)) links.push(url);
  }
  return links;
}
