/**
 * `digest add <schedule> [in <time zone>] [filters]`, `digest list`, `digest remove <id>`,
 * `digest run`. The schedule is read here (words or cron, operations/schedule.ts), so a mistake
 * is answered at once.
 */
import type { PostFilters } from '../../../../collab/postFilters.ts';
import { canonicalTimeZone, parseSchedule } from '../../../../operations/schedule.ts';
import { filtersStart, parseFilters } from '../filters.ts';
import { subcommand } from '../subcommand.ts';
import { isId } from '../words.ts';

type DigestAdd = { kind: 'digestAdd'; pattern: string; label: string; tz?: string; filters?: PostFilters };

export const digest = subcommand<
  DigestAdd | { kind: 'digestList' } | { kind: 'digestRemove'; digestId: string } | { kind: 'digestRun' }
>({
  name: 'digest',
  help: [
    {
      syntax: 'digest add <schedule> [in <time zone>] [filters, as follow’s]',
      description:
        'post a digest here on a schedule (words or cron; your Slack time zone unless you name one): new, resolved, most active and still unresolved posts of the linked channel (all channels when not linked)',
      example: 'digest add every weekday at 9:00 in Europe/Paris',
    },
    { syntax: 'digest list', description: 'this channel’s digests and their next run' },
    { syntax: 'digest remove <id>', description: 'remove a digest', example: 'digest remove d1' },
    { syntax: 'digest run', description: 'post this channel’s digest now' },
  ],
  read(args) {
    const [action = '', ...rest] = args;
    switch (action.toLowerCase()) {
      case 'add':
        return readAdd(rest.join(' ').trim());
      case 'list':
      case '':
        return rest.length > 0 ? '`digest list` takes nothing.' : { kind: 'digestList' };
      case 'remove':
      case 'delete': {
        const digestId = rest[0];
        if (!digestId || rest.length > 1 || !isId(digestId))
          return 'Name the digest to remove: its id, e.g. `d1` (see `digest list`).';
        return { kind: 'digestRemove', digestId };
      }
      case 'run':
      case 'now':
        return rest.length > 0
          ? '`digest run` takes nothing: it posts this channel’s digest now.'
          : { kind: 'digestRun' };
      default:
        return `\`digest ${action}\` is not something I know: use add, list, remove or run.`;
    }
  },
  plan: {
    digestAdd: (command, origin) => ({
      operation: 'addDigest',
      note: 'Scheduling the digest…',
      settings: 'digest add',
      data: {
        origin,
        pattern: command.pattern,
        label: command.label,
        ...(command.tz ? { tz: command.tz } : {}),
        ...(command.filters ? { filters: command.filters } : {}),
      },
    }),
    digestList: (_, origin) => ({ operation: 'listDigests', note: 'Looking up digests…', data: { origin } }),
    digestRemove: (command, origin) => ({
      operation: 'removeDigest',
      note: 'Removing the digest…',
      settings: 'digest remove',
      data: { origin, digestId: command.digestId },
    }),
    digestRun: (_, origin) => ({
      operation: 'runDigest',
      note: 'Making the digest…',
      settings: 'digest run',
      data: { origin },
    }),
  },
  // The audit names the action (`digest add requested`): the detail is what followed it.
  detail: (args) => args.slice(1).join(' '),
});

/** `<schedule> [in <time zone>] [filters]`. */
function readAdd(text: string): DigestAdd | string {
  let words = text;
  let filters: PostFilters | undefined;
  const from = filtersStart(words);
  if (from >= 0) {
    const parsed = parseFilters(words.slice(from));
    if (!parsed.ok) return parsed.error;
    filters = parsed.filters;
    words = words.slice(0, from).trim();
  }
  let tz: string | undefined;
  const zone = /\s+in\s+(\S+)$/i.exec(words);
  if (zone) {
    tz = canonicalTimeZone(zone[1]!);
    if (!tz) return `\`${zone[1]}\` is not a time zone I know: use an IANA name such as \`Europe/Paris\`.`;
    words = words.slice(0, zone.index).trim();
  }
  const schedule = parseSchedule(words);
  if (!schedule.ok) return schedule.error;
  return {
    kind: 'digestAdd',
    pattern: schedule.pattern,
    label: schedule.label,
    ...(tz ? { tz } : {}),
    ...(filters ? { filters } : {}),
  };
}
