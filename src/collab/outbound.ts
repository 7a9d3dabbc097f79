/**
 * The outbound guard for service URLs entered by workspace admins (multi-workspace mode): the
 * service must be on a public address. Loopback, private, link-local, unique-local, CGNAT,
 * multicast, reserved and cloud metadata addresses and names are refused — unless the operator
 * allows them (COLLAB_ALLOWED_HOSTS: host names, addresses or CIDRs) for on-premises services.
 *
 * Checked when the URL is entered ({@link OutboundGuard.check}) and again at every connection
 * ({@link OutboundGuard.lookup}, net.connect's `lookup`): the name is resolved, every address
 * checked, and the socket connects to the checked address, so a name that later resolves
 * elsewhere (DNS rebinding) is refused too.
 */
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { BlockList, isIP } from 'node:net';

/** Resolves a host name to all its addresses (dns.lookup with `all: true` by default). */
export type Resolve = (host: string) => Promise<LookupAddress[]>;

type LookupCallback = (
  error: NodeJS.ErrnoException | null,
  address: string | LookupAddress[],
  family?: number,
) => void;
/** net.connect's `lookup` option. */
export type LookupFunction = (
  hostname: string,
  options: { family?: number | string; all?: boolean },
  callback: LookupCallback,
) => void;

export interface OutboundGuard {
  /**
   * Why this URL may not be reached (a sentence for the admin), or undefined; resolves its host,
   * giving up after `timeoutMs` (Slack waits 3 s for the connect form's answer).
   */
  check(url: string, options?: { timeoutMs?: number }): Promise<string | undefined>;
  /** For net.connect: resolves, refuses a non-public address, answers only checked addresses. */
  lookup: LookupFunction;
  /** Why this host may not be reached without resolving it (an address, or a refused name). */
  refusedLiteral(host: string): string | undefined;
}

export interface OutboundGuardOptions {
  /** host names, addresses and CIDRs the operator allows although not public */
  allowed?: readonly string[];
  /** the resolver; default dns.lookup (the system's, as connections use) */
  resolve?: Resolve;
}

/** The error of a refused connection; its message names the address, never a key. */
export class RefusedTargetError extends Error {
  override readonly name = 'RefusedTargetError';
  readonly code = 'ERR_COLLAB_TARGET_REFUSED';
}

const systemResolve: Resolve = (host) =>
  new Promise((resolve, reject) =>
    dnsLookup(host, { all: true, verbatim: true }, (error, addresses) =>
      error ? reject(error) : resolve(addresses),
    ),
  );

/** Names that reach the host itself or a cloud's instance metadata, whatever DNS says. */
const REFUSED_NAMES = [
  'localhost',
  'metadata',
  'metadata.google.internal',
  'metadata.goog',
  'instance-data',
  'instance-data.ec2.internal',
];

const RANGES: Array<[kind: string, cidr: string]> = [
  ['a cloud metadata address', '169.254.169.254/32'],
  ['an unspecified address', '0.0.0.0/8'],
  ['a private address', '10.0.0.0/8'],
  ['a carrier-grade NAT address', '100.64.0.0/10'],
  ['a loopback address', '127.0.0.0/8'],
  ['a link-local address', '169.254.0.0/16'],
  ['a private address', '172.16.0.0/12'],
  ['a reserved address', '192.0.0.0/24'],
  ['a documentation address', '192.0.2.0/24'],
  ['a private address', '192.168.0.0/16'],
  ['a benchmarking address', '198.18.0.0/15'],
  ['a documentation address', '198.51.100.0/24'],
  ['a documentation address', '203.0.113.0/24'],
  ['a multicast address', '224.0.0.0/4'],
  ['a reserved address', '240.0.0.0/4'],
  ['an unspecified address', '::/128'],
  ['a loopback address', '::1/128'],
  ['a reserved address', '::/96'],
  ['a NAT64 address', '64:ff9b::/96'],
  ['a NAT64 address', '64:ff9b:1::/48'],
  ['a reserved address', '100::/64'],
  ['a documentation address', '2001:db8::/32'],
  ['a unique-local address', 'fc00::/7'],
  ['a link-local address', 'fe80::/10'],
  ['a site-local address', 'fec0::/10'],
  ['a multicast address', 'ff00::/8'],
];

const RANGE_LISTS = RANGES.map(([kind, cidr]) => {
  const list = new BlockList();
  addCidr(list, cidr);
  return { kind, list };
});

function addCidr(list: BlockList, entry: string): void {
  const [address, prefix] = entry.split('/') as [string, string | undefined];
  const plain = address.replace(/^\[|\]$/g, '');
  const type = isIP(plain) === 6 ? 'ipv6' : 'ipv4';
  if (prefix === undefined) list.addAddress(plain, type);
  else list.addSubnet(plain, Number(prefix), type);
}

/** The 16 bytes of an IPv6 address (embedded dotted IPv4 tail included). */
function ipv6Bytes(address: string): number[] {
  let text = address.toLowerCase();
  const zone = text.indexOf('%');
  if (zone !== -1) text = text.slice(0, zone);
  const tail = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  let tailBytes: number[] = [];
  if (tail?.[1]) {
    tailBytes = tail[1].split('.').map(Number);
    text = `${text.slice(0, -tail[1].length)}0:0`;
  }
  const [head, rest] = text.includes('::') ? text.split('::') : [text, undefined];
  const groups = (part: string | undefined) => (part ? part.split(':').filter((g) => g !== '') : []);
  const left = groups(head);
  const right = groups(rest);
  const fill = rest === undefined ? [] : Array(8 - left.length - right.length).fill('0');
  const words = [...left, ...fill, ...right].map((g) => Number.parseInt(g, 16));
  const bytes = words.flatMap((w) => [(w >> 8) & 0xff, w & 0xff]);
  if (tailBytes.length === 4) bytes.splice(12, 4, ...tailBytes);
  return bytes;
}

/** The IPv4 address an IPv6 address stands for (mapped, 6to4), if any. */
function embeddedIpv4(address: string): string | undefined {
  const b = ipv6Bytes(address);
  const zero = (from: number, to: number) => b.slice(from, to).every((x) => x === 0);
  // ::ffff:a.b.c.d (mapped) and ::ffff:0:a.b.c.d (translated)
  if (zero(0, 10) && b[10] === 0xff && b[11] === 0xff) return b.slice(12, 16).join('.');
  if (zero(0, 8) && b[8] === 0xff && b[9] === 0xff && zero(10, 12)) return b.slice(12, 16).join('.');
  // 2002:a.b.c.d::/48 (6to4)
  if (b[0] === 0x20 && b[1] === 0x02) return b.slice(2, 6).join('.');
  return undefined;
}

/** What kind of non-public address this is, or undefined for a public one. */
export function nonPublicKind(address: string): string | undefined {
  const version = isIP(address);
  if (version === 0) return 'not an address';
  if (version === 6) {
    const v4 = embeddedIpv4(address);
    if (v4 !== undefined) return nonPublicKind(v4);
  }
  const type = version === 6 ? 'ipv6' : 'ipv4';
  const plain = version === 6 ? address.replace(/%.*$/, '') : address;
  return RANGE_LISTS.find(({ list }) => list.check(plain, type))?.kind;
}

const normalHost = (host: string) =>
  host
    .trim()
    .toLowerCase()
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '');

export function outboundGuard(options: OutboundGuardOptions = {}): OutboundGuard {
  const resolve = options.resolve ?? systemResolve;
  const allowedNames = new Set<string>();
  const allowedAddresses = new BlockList();
  for (const entry of options.allowed ?? []) {
    const plain = normalHost(entry.split('/')[0] ?? '');
    if (isIP(plain) !== 0)
      addCidr(allowedAddresses, entry.includes('/') ? `${plain}/${entry.split('/')[1]}` : plain);
    else allowedNames.add(normalHost(entry));
  }
  const addressAllowed = (address: string) =>
    allowedAddresses.check(address.replace(/%.*$/, ''), isIP(address) === 6 ? 'ipv6' : 'ipv4');

  const refusal = (host: string, address: string | undefined, kind: string) =>
    `${address && address !== host ? `${host} resolves to ${address}, ` : `${host} is `}${kind}: the bot connects only to services on public addresses. The bot's operator can allow it (COLLAB_ALLOWED_HOSTS).`;

  function refusedLiteral(rawHost: string): string | undefined {
    const host = normalHost(rawHost);
    if (allowedNames.has(host)) return undefined;
    if (isIP(host) !== 0) {
      if (addressAllowed(host)) return undefined;
      const kind = nonPublicKind(host);
      return kind ? refusal(host, undefined, kind) : undefined;
    }
    if (REFUSED_NAMES.includes(host) || host.endsWith('.localhost')) {
      return refusal(host, undefined, host.includes('localhost') ? 'this machine' : 'a cloud metadata name');
    }
    return undefined;
  }

  /** The checked addresses of a host, or the sentence saying why not. */
  async function resolveChecked(rawHost: string): Promise<LookupAddress[] | string> {
    const host = normalHost(rawHost);
    const literal = refusedLiteral(host);
    if (literal) return literal;
    if (isIP(host) !== 0) return [{ address: host, family: isIP(host) }];
    const addresses = await resolve(host);
    if (addresses.length === 0) return `${host} does not resolve to any address.`;
    if (allowedNames.has(host)) return addresses;
    for (const { address } of addresses) {
      if (addressAllowed(address)) continue;
      const kind = nonPublicKind(address);
      if (kind) return refusal(host, address, kind);
    }
    return addresses;
  }

  return {
    refusedLiteral,
    async check(url, checkOptions = {}) {
      let host: string;
      try {
        host = new URL(url).hostname;
      } catch {
        return 'This is not a valid URL.';
      }
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<string>((done) => {
        if (checkOptions.timeoutMs === undefined) return;
        timer = setTimeout(
          () => done(`${normalHost(host)} could not be resolved in time: check the URL and try again.`),
          checkOptions.timeoutMs,
        );
      });
      try {
        const checked = await Promise.race([resolveChecked(host), late]);
        return typeof checked === 'string' ? checked : undefined;
      } catch {
        return `${normalHost(host)} could not be resolved: check the URL.`;
      } finally {
        clearTimeout(timer);
      }
    },
    lookup(hostname, lookupOptions, callback) {
      resolveChecked(hostname).then(
        (checked) => {
          if (typeof checked === 'string') {
            callback(new RefusedTargetError(checked), lookupOptions.all ? [] : '', 0);
            return;
          }
          const family = Number(lookupOptions.family) || 0;
          const usable = family === 0 ? checked : checked.filter((a) => a.family === family);
          if (usable.length === 0) {
            const error: NodeJS.ErrnoException = new Error(`${hostname} has no address of family ${family}`);
            error.code = 'ENOTFOUND';
            callback(error, lookupOptions.all ? [] : '', 0);
            return;
          }
          if (lookupOptions.all) callback(null, usable);
          else callback(null, usable[0]!.address, usable[0]!.family);
        },
        (error: NodeJS.ErrnoException) => callback(error, lookupOptions.all ? [] : '', 0),
      );
    },
  };
}
