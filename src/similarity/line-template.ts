// Turns a log line into its template, the one form triage signatures, diff counts and the
// similarity miner all use: the header (journal, klog, logfmt time) split off by the line
// parsers, then the variable parts (times, addresses, numbers, hashes, ids, paths) masked.
import { parseJournalLine } from '../parsers/journal-text.js';
import { levelOfWord, type Level } from '../parsers/line-level.js';
import { klogHeader, logfmtTimeField } from '../parsers/log-line.js';

/** Severity as a line states it (parsers/line-level.ts), reduced to what ranking needs. */
export type LineLevel = 'error' | 'warning' | 'info';

/** A log line with its header removed. */
export interface LineMessage {
  /** The message: after the journal header, the klog header and logfmt's `time="..."`. */
  message: string;
  /** The journal's hostname field, when the line has a journal header. */
  host?: string;
  level?: LineLevel;
}

/** Placeholder a varying token becomes when templates merge. */
export const WILDCARD = '<*>';

const JSON_LEVEL = /"(?:level|severity)"\s*:\s*"(\w+)"/;
const LOGFMT_LEVEL = /\blevel=(\w+)/;

/** A level as ranking weighs it: fatal counts as error, debug as info. */
function rankedLevel(level: Level | undefined): LineLevel | undefined {
  if (level === undefined) return undefined;
  return level === 'fatal' ? 'error' : level === 'debug' ? 'info' : level;
}

function levelWord(word: string): LineLevel | undefined {
  return rankedLevel(levelOfWord(word));
}

/**
 * The journal header of a line as the journal parser reads it (time, host, identifier).
 * `alone`: the line comes without its file, so it needs an identifier too to count as a
 * journal line (plain logs also start with an ISO time and a word); in a journal file the
 * parser's reading stands.
 */
function journalHeader(raw: string, alone: boolean): { host: string; message: string } | undefined {
  const entry = parseJournalLine(raw, 0, undefined);
  if (!entry || (alone && entry.identifier === undefined)) return undefined;
  return { host: entry.hostname ?? '', message: entry.text };
}

/** Whether a line starts with a journal header of some `short*` form (for lines given alone). */
export function looksLikeJournal(raw: string): boolean {
  return journalHeader(raw, true) !== undefined;
}

/**
 * The message of one raw line: journal header removed when `journal`, then klog's header and
 * logfmt's leading time; the level as the line states it.
 */
export function splitLine(raw: string, journal: boolean): LineMessage {
  if (!journal) return splitBody(raw, undefined);
  const header = journalHeader(raw, false);
  // A journal line without a header (a continuation) keeps its text, indentation dropped.
  return header ? splitBody(header.message, header.host) : splitBody(raw.trim(), undefined);
}

/** A line given alone: its journal header removed when it has one. */
function splitAlone(raw: string): LineMessage {
  const header = journalHeader(raw, true);
  return header ? splitBody(header.message, header.host) : splitBody(raw, undefined);
}

/** The message after a journal header (or the whole line): klog's header and logfmt's time removed. */
function splitBody(body: string, host: string | undefined): LineMessage {
  let message = body;
  let level: LineLevel | undefined;
  const first = message.charCodeAt(0);
  const klog = klogHeader(message);
  if (klog) {
    level = levelWord(klog.level);
    message = message.slice(klog.length);
  } else if (first === 116 /* t */) {
    const time = logfmtTimeField(message);
    if (time) {
      message = message.slice(time.end).trimStart();
      const lv = LOGFMT_LEVEL.exec(message);
      if (lv) level = levelWord(lv[1]);
    }
  } else if (first === 123 /* { */) {
    const lv = JSON_LEVEL.exec(message);
    if (lv) level = levelWord(lv[1]);
  } else if (first === 108 /* l */ && message.startsWith('level=')) {
    const lv = LOGFMT_LEVEL.exec(message);
    if (lv) level = levelWord(lv[1]);
  }
  const out: LineMessage = { message };
  if (host !== undefined) out.host = host;
  if (level !== undefined) out.level = level;
  return out;
}

// Masking is a hand-written scan, not a chain of regular expressions: the miner runs it on
// every line of every log, and one pass over the characters is several times faster.
// A message is cut into whitespace tokens; inside a token, runs between separators (quotes,
// `=`, `,`, brackets) are "chunks", and only chunks holding a digit, a dot, a slash or a colon
// are classified: URL, address, time, id, hash, number, path, image, host name.

/** Characters that end a chunk inside a token: quotes, `=`, `,`, `;`, brackets, backslash. */
const SEP = new Uint8Array(128);
for (const ch of `"'=,;{}()[]<>\\\`|`) SEP[ch.charCodeAt(0)] = 1;

function isSpace(c: number): boolean {
  return c === 32 || c === 9 || c === 10 || c === 13;
}

function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

function isAlpha(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90);
}

function isHexLower(c: number): boolean {
  return isDigit(c) || (c >= 97 && c <= 102);
}

const TLDS = new Set(['com', 'net', 'org', 'io', 'local', 'lan', 'internal', 'cluster', 'example', 'test', 'corp', 'cloud', 'dev', 'svc', 'localdomain', 'home', 'arpa', 'edu', 'gov']);

const IPV4_RE = /^(?:\d{1,3}\.){3}\d{1,3}(?:\/\d{1,2})?(?::\d{1,5})?$/;
const IPV6_RE = /^\[?(?=[0-9a-fA-F:]*\d)(?:[0-9a-fA-F]{0,4}:){2,7}[0-9a-fA-F]{0,4}\]?(?::\d{1,5})?$/;
const DATE_RE = /^\d{4}-\d{2}-\d{2}(?:[T_]\d{2}:\d{2}(?::\d{2})?(?:[.,]\d+)?(?:Z|[+-]\d{2}:?\d{2})?)?$/;
const CLOCK_RE = /^\d{1,2}:\d{2}(?::\d{2})?(?:[.,]\d+)?(?:Z)?$/;
const UUID_RE = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;
const NUMBER_RE = /^[-+]?\d+(?:[.,]\d+)*(?:[a-zA-Zµ%]{1,3})?$/;
const VERSION_RE = /^v\d+(?:\.\d+)+(?:[-+][\w.-]*)?$/;
const DURATION_RE = /^(?:\d+(?:\.\d+)?(?:h|m|s|ms|us|µs|ns))+$/;
const REGISTRY_RE = /^(?:[a-zA-Z0-9-]+\.)+[a-zA-Z]{2,}(?::\d{1,5})?$|^[\w.-]+:\d{1,5}$/;
const HOST_RE = /^(?:[a-zA-Z0-9](?:[a-zA-Z0-9-]*[a-zA-Z0-9])?\.)+([a-zA-Z]{2,12})\.?$/;

/** Mask of a chunk, or undefined to keep it as written. `digits`/`dots`/`slashes` describe it. */
function maskChunk(chunk: string, digits: number, dots: number, slashes: number): string | undefined {
  if (slashes > 0) {
    const scheme = chunk.indexOf('://');
    if (scheme > 0) return maskUrl(chunk, scheme);
    if (chunk.charCodeAt(0) === 47 /* / */) return slashes >= 2 ? '<PATH>' : digits > 0 ? maskParts(chunk) : undefined;
    // `Name:/kubepods.slice/...`: a key glued to a path.
    const glued = chunk.indexOf(':/');
    if (glued > 0 && chunk.charCodeAt(glued + 2) !== 47) {
      const rest = chunk.slice(glued + 1);
      return chunk.slice(0, glued + 1) + (maskChunk(rest, countDigits(rest), 0, slashes) ?? rest);
    }
    if (digits > 0 && IPV4_RE.test(chunk)) return '<IP>';
    // An image reference: a registry (a dotted name or host:port) before the first slash.
    const first = chunk.slice(0, chunk.indexOf('/'));
    if (REGISTRY_RE.test(first)) return '<IMAGE>';
    return maskParts(chunk);
  }
  if (digits > 0) {
    if (dots === 3 && IPV4_RE.test(chunk)) return '<IP>';
    const c0 = chunk.charCodeAt(0);
    if (isDigit(c0)) {
      if (NUMBER_RE.test(chunk) || DURATION_RE.test(chunk)) return '<NUM>';
      if (DATE_RE.test(chunk) || CLOCK_RE.test(chunk)) return '<TIME>';
    }
    if (chunk.length >= 8) {
      if (UUID_RE.test(chunk)) return '<UUID>';
      if (isHexRun(chunk, 0)) return '<HEX>';
      if (chunk.startsWith('sha256:') && isHexRun(chunk, 7)) return '<HEX>';
    }
    if (chunk.includes(':') && IPV6_RE.test(chunk)) return '<IP>';
    if (dots >= 1 && HOST_RE.test(chunk) && isHostName(chunk, dots)) return '<HOST>';
    if (c0 === 118 /* v */ && VERSION_RE.test(chunk)) return '<NUM>';
    return maskParts(chunk);
  }
  if (dots >= 1 && HOST_RE.test(chunk) && isHostName(chunk, dots)) return '<HOST>';
  return undefined;
}

function countDigits(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) if (isDigit(s.charCodeAt(i))) n++;
  return n;
}

function isHexRun(s: string, from: number): boolean {
  let digit = false;
  for (let i = from; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (!isHexLower(c)) return false;
    if (isDigit(c)) digit = true;
  }
  return digit && s.length - from >= 8;
}

/** A dotted name is a host when it has three labels or ends in a domain-like label. */
function isHostName(chunk: string, dots: number): boolean {
  const name = chunk.endsWith('.') ? chunk.slice(0, -1) : chunk;
  const tld = name.slice(name.lastIndexOf('.') + 1).toLowerCase();
  return (dots >= 2 && !/^(?:go|sh|py|js|ts|json|yaml|yml|log|txt|conf|service|crt|key|pem|scope|slice|socket|mount|target|timer)$/.test(tld)) || TLDS.has(tld);
}

/** A chunk that is none of the known shapes: each part between `/`, `@`, `:` alone. */
function maskParts(chunk: string): string {
  let out = '';
  let start = 0;
  for (let i = 0; i <= chunk.length; i++) {
    const c = i < chunk.length ? chunk.charCodeAt(i) : 47;
    if (c === 47 /* / */ || c === 64 /* @ */ || c === 58 /* : */) {
      if (i > start) out += maskPart(chunk.slice(start, i));
      if (i < chunk.length) out += chunk[i];
      start = i + 1;
    }
  }
  return out;
}

function maskPart(part: string): string {
  let digits = 0;
  let dots = 0;
  for (let i = 0; i < part.length; i++) {
    const c = part.charCodeAt(i);
    if (isDigit(c)) digits++;
    else if (c === 46) dots++;
  }
  if (digits === 0) return dots >= 1 && HOST_RE.test(part) && isHostName(part, dots) ? '<HOST>' : part;
  if (NUMBER_RE.test(part) || DURATION_RE.test(part)) return '<NUM>';
  if (part.length >= 8 && isHexRun(part, 0)) return '<HEX>';
  if (dots >= 1 && HOST_RE.test(part) && isHostName(part, dots)) return '<HOST>';
  return maskAlnumRuns(part);
}

/**
 * Letter-and-digit runs of a part: a run of digits, or a run that starts with digits, is a
 * number; a word with a few digits after letters (`ocp4`, `x509`, `v1beta1`, `k8s`) stays.
 */
function maskAlnumRuns(part: string): string {
  let out = '';
  let i = 0;
  while (i < part.length) {
    const c = part.charCodeAt(i);
    if (!isDigit(c) && !isAlpha(c)) {
      out += part[i];
      i++;
      continue;
    }
    let j = i;
    let digits = 0;
    while (j < part.length) {
      const d = part.charCodeAt(j);
      if (isDigit(d)) digits++;
      else if (!isAlpha(d)) break;
      j++;
    }
    const run = part.slice(i, j);
    if (isGeneratedSuffix(part, i, j)) out += GENERATED;
    else if (digits === 0 || (!isDigit(c) && digits <= 3 && run.length - digits >= 1 && !isHexRun(run, 0))) out += run;
    else if (run.length >= 8 && isHexRun(run, 0)) out += '<HEX>';
    else out += '<NUM>';
    i = j;
  }
  return out;
}

/** Placeholder of a generated Kubernetes name suffix. */
const GENERATED = '<ID>';

function isVowel(c: number): boolean {
  return c === 97 || c === 101 || c === 105 || c === 111 || c === 117 || c === 121;
}

/**
 * Whether `s[start, end)` is the random suffix of a name made from `generateName` (pods,
 * CSRs): five lower-case letters and digits after a dash, ending the name or followed by `_`.
 * Kubernetes draws them from consonants and digits, so one holding a digit or no vowel is
 * generated; after `csr-` any five are. Words (`proxy`, `ready`) stay; `linux-amd64` is
 * masked too, which costs a signature nothing.
 */
function isGeneratedSuffix(s: string, start: number, end: number): boolean {
  if (end - start !== 5 || start === 0 || s.charCodeAt(start - 1) !== 45 /* - */) return false;
  if (end < s.length) {
    const after = s.charCodeAt(end);
    if (isDigit(after) || isAlpha(after) || after === 45 || after === 46) return false;
  }
  let digits = 0;
  let vowels = 0;
  for (let k = start; k < end; k++) {
    const c = s.charCodeAt(k);
    if (isDigit(c)) digits++;
    else if (c < 97 || c > 122) return false;
    else if (isVowel(c)) vowels++;
  }
  if (start >= 4 && s.startsWith('csr-', start - 4) && (start === 4 || !isAlpha(s.charCodeAt(start - 5)))) return true;
  return (digits > 0 && digits < 5) || vowels === 0;
}

/** A name chunk without digits, dots or slashes, its generated suffixes masked; undefined when it has none. */
function maskGeneratedNames(chunk: string): string | undefined {
  let out: string | undefined;
  let copied = 0;
  let i = 0;
  while (i < chunk.length) {
    if (chunk.charCodeAt(i) !== 45) {
      i++;
      continue;
    }
    const start = i + 1;
    let end = start;
    while (end < chunk.length && isAlpha(chunk.charCodeAt(end))) end++;
    if (isGeneratedSuffix(chunk, start, end)) {
      out = (out ?? '') + chunk.slice(copied, start) + GENERATED;
      copied = end;
    }
    i = end;
  }
  return out === undefined ? undefined : out + chunk.slice(copied);
}

const TRAILING_PUNCT = /[.,;:)\]}]+$/;

function maskUrl(url: string, sep: number): string {
  const tail = TRAILING_PUNCT.exec(url)?.[0] ?? '';
  const body = tail ? url.slice(0, -tail.length) : url;
  const rest = body.slice(sep + 3);
  const slash = rest.indexOf('/');
  // The host and port vary per cluster; path words (`/config/master`, `/api/v1/nodes`) say what
  // was asked, so they stay, with segments holding digits masked and the query dropped.
  const path =
    slash < 0
      ? ''
      : rest
          .slice(slash)
          .split('?')[0]
          .split('/')
          .map((s) => (/\d/.test(s) && !/^v\d+(?:(?:alpha|beta)\d+)?$/.test(s) ? WILDCARD : s))
          .join('/');
  return `${body.slice(0, sep)}://<HOST>${path}${tail}`;
}

/**
 * Whitespace tokens of a message with their variable parts masked (times, addresses, numbers,
 * hashes, ids, paths, host names), at most `max` (the rest folded into one wildcard).
 */
export function templateTokens(message: string, max: number): string[] {
  const tokens: string[] = [];
  const n = message.length;
  let i = 0;
  while (i < n) {
    while (i < n && isSpace(message.charCodeAt(i))) i++;
    if (i >= n) break;
    if (tokens.length === max - 1) {
      tokens.push(WILDCARD);
      break;
    }
    const tokenStart = i;
    let built: string | undefined;
    let copied = tokenStart;
    while (i < n) {
      const c = message.charCodeAt(i);
      if (isSpace(c)) break;
      if (c < 128 && SEP[c] === 1) {
        i++;
        continue;
      }
      const chunkStart = i;
      let digits = 0;
      let dots = 0;
      let slashes = 0;
      let colons = 0;
      let dashes = 0;
      while (i < n) {
        const d = message.charCodeAt(i);
        if (isSpace(d) || (d < 128 && SEP[d] === 1)) break;
        if (d >= 48 && d <= 57) digits++;
        else if (d === 46) dots++;
        else if (d === 47) slashes++;
        else if (d === 58) colons++;
        else if (d === 45) dashes++;
        i++;
      }
      if (digits === 0 && dots === 0 && slashes === 0) {
        // `ovnkube-node-vncwq`: a generated name has no digit to give it away.
        const named = dashes > 0 ? maskGeneratedNames(message.slice(chunkStart, i)) : undefined;
        if (named === undefined) continue;
        built = (built ?? '') + message.slice(copied, chunkStart) + named;
        copied = i;
        continue;
      }
      // Sentence punctuation at the end of a chunk is not part of what it names.
      let end = i;
      while (end > chunkStart + 1) {
        const e = message.charCodeAt(end - 1);
        if (e !== 46 && e !== 58) break;
        if (e === 46) dots--;
        else colons--;
        end--;
      }
      if (digits === 0 && dots === 0 && slashes === 0) continue;
      const mask = maskChunk(message.slice(chunkStart, end), digits, dots, slashes);
      if (mask === undefined) continue;
      built = (built ?? '') + message.slice(copied, chunkStart) + mask;
      copied = end;
    }
    tokens.push(built === undefined ? message.slice(tokenStart, i) : built + message.slice(copied, i));
  }
  return tokens;
}

/** The message with its variable parts (times, addresses, numbers, hashes, ids, paths) masked. */
export function maskMessage(message: string): string {
  return templateTokens(message, Number.MAX_SAFE_INTEGER).join(' ');
}

/** True for a token that is a placeholder (`<*>`, `<NUM>`, `<IP>`, ...). */
export function isParameter(token: string): boolean {
  return token.charCodeAt(0) === 60 /* < */ && token.charCodeAt(token.length - 1) === 62 /* > */;
}


/**
 * The template of one line, as the miner would start it (header removed, masked). Without
 * `journal`, whether the line has a journal header is read from the line itself.
 */
export function lineTemplate(raw: string, journal?: boolean): { template: string; level?: LineLevel; host?: string } {
  const m = journal === undefined ? splitAlone(raw) : splitLine(raw, journal);
  const out: { template: string; level?: LineLevel; host?: string } = { template: templateTokens(m.message, 256).join(' ') };
  if (m.level) out.level = m.level;
  if (m.host) out.host = m.host;
  return out;
}

/** The template of one line given alone: triage signatures and diff counts. */
export function templateOf(raw: string): string {
  return lineTemplate(raw).template;
}
