// Reads a host's network files: `ip addr`, `ip route`, resolv.conf, /etc/hosts and `hostname`.
import type { NetInterface, NetworkInfo, Route } from '../model/types.js';
import { parsed, type Parsed, type ParseProblem } from './parsed.js';
import { capProblems, clip, splitLines } from './text-input.js';

function isBlank(text: string): boolean {
  return text.trim() === '';
}

// `2: ens3: <BROADCAST,MULTICAST,UP,LOWER_UP> mtu 1500 qdisc fq_codel state UP group default qlen 1000`
const LINK_RE = /^(\d+):\s+([^:\s]+):\s+<([^>]*)>(.*)$/;
const ADDR_RE = /^\s+(inet6?)\s+(\S+)([^]*)$/;

/** The value after `key` in a run of `key value` words. */
function wordAfter(words: string[], key: string): string | undefined {
  const i = words.indexOf(key);
  return i >= 0 && i + 1 < words.length ? words[i + 1] : undefined;
}

/**
 * Parses `ip addr` output into interfaces with state, MTU, MAC and addresses. A name such as
 * `br-ex@ens3` or `veth1@if3` loses its `@` part. Lines that are neither a link, an
 * attribute nor an address (error text) become problems.
 */
export function parseIpAddr(text: string): Parsed<NetInterface[]> {
  const lines = splitLines(text);
  if (lines.every(isBlank)) return parsed([], [{ kind: 'empty', message: 'ip addr output is empty' }]);
  const out: NetInterface[] = [];
  const problems: ParseProblem[] = [];
  let current: NetInterface | undefined;
  lines.forEach((raw, i) => {
    if (isBlank(raw)) return;
    const link = LINK_RE.exec(raw);
    if (link) {
      const words = link[4].trim().split(/\s+/);
      current = { name: link[2].replace(/@[^]*$/, ''), addresses: [] };
      const state = wordAfter(words, 'state');
      if (state !== undefined) current.state = state;
      const mtu = Number(wordAfter(words, 'mtu'));
      if (Number.isInteger(mtu) && mtu > 0) current.mtu = mtu;
      out.push(current);
      return;
    }
    if (!current || !/^\s/.test(raw)) {
      problems.push({ kind: 'unparseable', message: `not ip addr output: ${clip(raw.trim())}`, line: i + 1 });
      return;
    }
    const addr = ADDR_RE.exec(raw);
    if (addr) {
      const family = addr[1] as 'inet' | 'inet6';
      const words = addr[3].trim().split(/\s+/);
      // Point-to-point links print `inet 10.0.0.4 peer 10.0.0.1/32`: the prefix is the peer's.
      const withPrefix = addr[2].includes('/') ? addr[2] : `${addr[2]}/${(wordAfter(words, 'peer') ?? '').split('/')[1] ?? ''}`;
      const [address, prefixText] = withPrefix.split('/');
      const prefix = prefixText === '' || prefixText === undefined ? (family === 'inet' ? 32 : 128) : Number(prefixText);
      const entry: NetInterface['addresses'][number] = { family, address, prefix };
      const scope = wordAfter(words, 'scope');
      if (scope !== undefined) entry.scope = scope;
      current.addresses.push(entry);
      return;
    }
    const mac = /^\s+link\/\S+\s+([0-9a-f]{2}(?::[0-9a-f]{2}){5})\b/i.exec(raw);
    if (mac) current.mac = mac[1].toLowerCase();
    // valid_lft, altname, link-netns and similar attribute lines carry nothing the model keeps.
  });
  return parsed(out, capProblems(problems));
}

const ROUTE_TYPES = new Set(['unicast', 'local', 'broadcast', 'multicast', 'throw', 'unreachable', 'prohibit', 'blackhole', 'nat', 'anycast']);
const DESTINATION_RE = /^(?:default|[0-9a-f.:]+(?:\/\d{1,3})?)$/i;

/**
 * Parses `ip route` (or `ip -6 route`) output. A multipath route's `nexthop` lines fill its
 * first gateway and device and are kept in `raw`.
 */
export function parseIpRoute(text: string): Parsed<Route[]> {
  const lines = splitLines(text);
  if (lines.every(isBlank)) return parsed([], [{ kind: 'empty', message: 'ip route output is empty' }]);
  const out: Route[] = [];
  const problems: ParseProblem[] = [];
  lines.forEach((raw, i) => {
    if (isBlank(raw)) return;
    if (/^\s/.test(raw)) {
      const previous = out[out.length - 1];
      const words = raw.trim().split(/\s+/);
      if (previous && words[0] === 'nexthop') {
        previous.raw += `\n${raw.trimEnd()}`;
        const via = wordAfter(words, 'via');
        const dev = wordAfter(words, 'dev');
        if (previous.via === undefined && via !== undefined) previous.via = via;
        if (previous.dev === undefined && dev !== undefined) previous.dev = dev;
        return;
      }
      problems.push({ kind: 'unparseable', message: `not ip route output: ${clip(raw.trim())}`, line: i + 1 });
      return;
    }
    const words = raw.trim().split(/\s+/);
    const destIndex = ROUTE_TYPES.has(words[0]) ? 1 : 0;
    const destination = words[destIndex];
    if (destination === undefined || !DESTINATION_RE.test(destination)) {
      problems.push({ kind: 'unparseable', message: `not ip route output: ${clip(raw.trim())}`, line: i + 1 });
      return;
    }
    const rest = words.slice(destIndex + 1);
    const route: Route = { destination, raw: raw.trimEnd() };
    const via = wordAfter(rest, 'via');
    if (via !== undefined) route.via = via;
    const dev = wordAfter(rest, 'dev');
    if (dev !== undefined) route.dev = dev;
    const src = wordAfter(rest, 'src');
    if (src !== undefined) route.source = src;
    out.push(route);
  });
  return parsed(out, capProblems(problems));
}

/** What resolv.conf gives the model. */
export type ResolvConf = Pick<NetworkInfo, 'nameservers' | 'searchDomains'>;

/**
 * Parses resolv.conf: `nameserver` lines in order, and the search list. As in the resolver,
 * the last `search` or `domain` line wins. Comments start with `#` or `;`.
 */
export function parseResolvConf(text: string): Parsed<ResolvConf> {
  const lines = splitLines(text);
  const value: ResolvConf = { nameservers: [], searchDomains: [] };
  if (lines.every(isBlank)) return parsed(value, [{ kind: 'empty', message: 'resolv.conf is empty' }]);
  const problems: ParseProblem[] = [];
  lines.forEach((raw, i) => {
    const t = raw.trim();
    if (t === '' || t.startsWith('#') || t.startsWith(';')) return;
    const [keyword, ...args] = t.split(/\s+/);
    switch (keyword) {
      case 'nameserver':
        if (args[0] !== undefined) value.nameservers.push(args[0]);
        else problems.push({ kind: 'unparseable', message: 'nameserver without an address', line: i + 1 });
        return;
      case 'search':
      case 'domain':
        value.searchDomains = args.filter((a) => !a.startsWith('#') && !a.startsWith(';'));
        return;
      case 'options':
      case 'sortlist':
        return;
      default:
        problems.push({ kind: 'unparseable', message: `unknown resolv.conf line: ${clip(t)}`, line: i + 1 });
    }
  });
  return parsed(value, capProblems(problems));
}

// IPv6: hex, dots and colons with at least one colon (a look-ahead, not two runs that overlap).
const ADDRESS_RE = /^(?:\d{1,3}(?:\.\d{1,3}){3}|(?=[0-9a-f.]*:)[0-9a-f:.]+(?:%\S+)?)$/i;

/** Parses /etc/hosts: an address and its names per line; `#` starts a comment anywhere. */
export function parseHosts(text: string): Parsed<NetworkInfo['hosts']> {
  const lines = splitLines(text);
  if (lines.every(isBlank)) return parsed([], [{ kind: 'empty', message: 'hosts file is empty' }]);
  const out: NetworkInfo['hosts'] = [];
  const problems: ParseProblem[] = [];
  lines.forEach((raw, i) => {
    const t = raw.replace(/#[^]*$/, '').trim();
    if (t === '') return;
    const [address, ...names] = t.split(/\s+/);
    if (!ADDRESS_RE.test(address) || names.length === 0) {
      problems.push({ kind: 'unparseable', message: `not a hosts line: ${clip(t)}`, line: i + 1 });
      return;
    }
    out.push({ address, names });
  });
  return parsed(out, capProblems(problems));
}

const HOSTNAME_RE = /^[A-Za-z0-9_](?:[A-Za-z0-9_.-]*[A-Za-z0-9_])?$/;

/**
 * Parses `hostname` output: one name. Anything else (an error message, several words) gives
 * no name and a problem.
 */
export function parseHostname(text: string): Parsed<string | undefined> {
  const lines = splitLines(text);
  const i = lines.findIndex((l) => !isBlank(l));
  if (i < 0) return parsed(undefined, [{ kind: 'empty', message: 'hostname output is empty' }]);
  const name = lines[i].trim();
  if (!HOSTNAME_RE.test(name) || name.length > 253) {
    return parsed(undefined, [{ kind: 'unparseable', message: `not a host name: ${clip(name)}`, line: i + 1 }]);
  }
  const extra = lines.findIndex((l, j) => j > i && !isBlank(l));
  if (extra >= 0) {
    return parsed(name, [{ kind: 'unparseable', message: `unexpected text after the host name: ${clip(lines[extra].trim())}`, line: extra + 1 }]);
  }
  return parsed(name);
}
