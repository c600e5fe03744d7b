// The text forms miner, knowledge base and matchers share: line → message → masked tokens → words.

/** Severity as a line states it, reduced to what ranking needs. */
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

// klog: `E1122 10:15:20.001122    2519 kubelet_node_status.go:96] ` (the caller's line number
// changes between releases, so the whole prefix goes; the level is kept apart).
const KLOG_PREFIX = /^([IWEF])\d{4} \d{1,2}:\d{2}:\d{2}(?:\.\d+)? +\d+ [^\]\s]*\] ?/;
const JSON_LEVEL = /"(?:level|severity)"\s*:\s*"(\w+)"/;
const LOGFMT_LEVEL = /\blevel=(\w+)/;

/** How far into a line a journal header (time, host, identifier) can reach. */
const HEADER_SPAN = 200;

function levelWord(word: string): LineLevel | undefined {
  switch (word.toLowerCase()) {
    case 'error':
    case 'err':
    case 'fatal':
    case 'panic':
    case 'crit':
    case 'critical':
    case 'dpanic':
    case 'emerg':
    case 'alert':
      return 'error';
    case 'warn':
    case 'warning':
      return 'warning';
    case 'info':
    case 'debug':
    case 'trace':
    case 'notice':
      return 'info';
    default:
      return undefined;
  }
}

/**
 * Splits the message from a journal header (`Nov 22 10:15:04 host ident[pid]: msg`, any
 * `short*` form). Returns -1 when the line has no header (continuations, plain text).
 */
function journalMessageStart(raw: string): { start: number; hostStart: number; identStart: number } | undefined {
  const c = raw.charCodeAt(0);
  // journalctl indents continuation lines; markers (`-- Boot ... --`) carry no message.
  if (c === 32 || c === 9) return undefined;
  let colon = raw.indexOf(': ');
  if (colon < 0 && raw.endsWith(':')) colon = raw.length - 1;
  if (colon < 0 || colon > HEADER_SPAN) return undefined;
  const identStart = raw.lastIndexOf(' ', colon) + 1;
  if (identStart <= 1) return undefined;
  const hostStart = raw.lastIndexOf(' ', identStart - 2) + 1;
  if (hostStart <= 1) return undefined;
  return { start: Math.min(raw.length, colon + 2), hostStart, identStart };
}

/**
 * The message of one raw line: journal header removed when `journal`, then klog's header and
 * logfmt's leading time; the level as the line states it.
 */
export function splitLine(raw: string, journal: boolean): LineMessage {
  let message = raw;
  let host: string | undefined;
  if (journal) {
    const h = journalMessageStart(raw);
    if (h) {
      host = raw.slice(h.hostStart, h.identStart - 1);
      message = raw.slice(h.start);
    } else {
      message = raw.trim();
    }
  }
  let level: LineLevel | undefined;
  const first = message.charCodeAt(0);
  if (first === 73 || first === 87 || first === 69 || first === 70) {
    const m = KLOG_PREFIX.exec(message);
    if (m) {
      level = m[1] === 'E' || m[1] === 'F' ? 'error' : m[1] === 'W' ? 'warning' : 'info';
      message = message.slice(m[0].length);
    }
  } else if (first === 116 /* t */ && message.startsWith('time="')) {
    const close = message.indexOf('"', 6);
    if (close > 0) message = message.slice(close + 1).trimStart();
    const lv = LOGFMT_LEVEL.exec(message);
    if (lv) level = levelWord(lv[1]);
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
    if (digits === 0 || (!isDigit(c) && digits <= 3 && run.length - digits >= 1 && !isHexRun(run, 0))) out += run;
    else if (run.length >= 8 && isHexRun(run, 0)) out += '<HEX>';
    else out += '<NUM>';
    i = j;
  }
  return out;
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
      while (i < n) {
        const d = message.charCodeAt(i);
        if (isSpace(d) || (d < 128 && SEP[d] === 1)) break;
        if (d >= 48 && d <= 57) digits++;
        else if (d === 46) dots++;
        else if (d === 47) slashes++;
        else if (d === 58) colons++;
        i++;
      }
      if (digits === 0 && dots === 0 && slashes === 0) continue;
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

/** The template of one line, as the miner would start it (header removed, masked). */
export function lineTemplate(raw: string, journal = looksLikeJournal(raw)): { template: string; level?: LineLevel; host?: string } {
  const m = splitLine(raw, journal);
  const out: { template: string; level?: LineLevel; host?: string } = { template: templateTokens(m.message, 256).join(' ') };
  if (m.level) out.level = m.level;
  if (m.host) out.host = m.host;
  return out;
}

const JOURNAL_START = /^(?:\S+ +\d{1,2} \d{1,2}:\d{2}:\d{2}|\d{4}-\d{2}-\d{2}T\S+|\w{3} \d{4}-\d{2}-\d{2} |\d{9,11}\.\d+ |\[ *\d+\.\d+\] )/;

/** Whether a line starts with a journal header of some `short*` form (for lines given alone). */
export function looksLikeJournal(raw: string): boolean {
  return JOURNAL_START.test(raw) && journalMessageStart(raw) !== undefined;
}

// Words that say something failed. Matched on whole words of a template, case-insensitive.
const ERROR_WORDS =
  /\b(?:errors?|err|fail(?:s|ed|ure|ing)?|fatal|panic|refused|time(?:d)? ?out|timeout|deadline exceeded|denied|unauthori[sz]ed|forbidden|unable|cannot|can't|could not|couldn't|invalid|x509|no such host|not found|unknown authority|unreachable|no route|oom|out of memory|killed|exceeded|degraded|no space|mismatch|expired|not yet valid|reset by peer|crashloop|back-off|backoff|rejected|unhealthy|not ready|missing|broken|abort(?:ed)?|corrupt(?:ed)?|misbehaving|i\/o timeout|took too long|too long|slow)\b/i;

// Words of a loop that is not getting anywhere: weaker than an error, but a script retrying
// the same step until it times out is often the only trace of the failure.
const RETRY_WORDS = /\b(?:retry(?:ing)?|retries|trying again|try again|still waiting|giving up|gave up|re-?attempt(?:ing)?)\b/i;

/**
 * Case-sensitive substrings, at least one of which is in every line whose template can read
 * like a failure (`ERROR_WORDS`, `RETRY_WORDS`, error levels spelled out): the reader finds
 * them in its one scan, so the miner sees error-like lines only. Each is five bytes or more,
 * which keeps that scan's skips long. A superset: lines holding one need not be errors.
 */
export const ERROR_LITERALS: readonly string[] = [
  ...variants('error', 'fail ', 'failed', 'failure', 'failing', 'fails', 'fatal', 'critical', 'crit"', 'panic', 'refused', 'timeout', 'timed out', 'exceeded', 'denied', 'unauthori'),
  ...variants('forbidden', 'unable', 'cannot', "can't", 'could not', "couldn't", 'invalid', 'unreachable', 'killed'),
  ...variants('degraded', 'mismatch', 'expired', 'crashloop', 'back-off', 'backoff', 'rejected', 'unhealthy', 'not ready'),
  ...variants('missing', 'broken', 'abort', 'corrupt', 'misbehaving', 'too long', 'retry', 'retries', 'trying again'),
  ...variants('try again', 'still waiting', 'giving up', 'gave up', 'attempt', 'time out', 'not found', 'no space'),
  ...variants('no such host', 'no route', 'unknown authority', 'out of memory', 'not yet valid', 'reset by peer', 'slow '),
  'x509:', 'x509 ', 'X509:', 'X509 ', 'oom-kill', 'oom_kill', 'OOMKill', 'CrashLoop', 'BackOff', 'NotReady', 'err="', 'err=\'', 'level=crit',
];

/** A word as written in lower case, capitalised and in capitals. */
function variants(...words: string[]): string[] {
  return words.flatMap((w) => [w, w[0].toUpperCase() + w.slice(1), w.toUpperCase()]);
}

/** Whether a template reads like a failure (its words or its stated level), 0..1. */
export function errorWeight(template: string, level: LineLevel | undefined): number {
  const words = ERROR_WORDS.test(template);
  if (level === 'error') return 1;
  if (level === 'warning') return words ? 0.8 : 0.4;
  if (words) return level === 'info' ? 0.5 : 0.75;
  if (RETRY_WORDS.test(template)) return 0.55;
  return 0;
}

/** Tokens too common in log text to tell issues apart. */
const STOP = new Set([
  'a', 'an', 'and', 'are', 'as', 'at', 'be', 'by', 'for', 'from', 'has', 'have', 'in', 'into', 'is', 'it', 'its', 'of', 'on',
  'or', 'that', 'the', 'this', 'to', 'was', 'were', 'with', 'msg', 'level', 'ts', 'caller', 'time', 'info', 'go', 'sh',
]);

const PLACEHOLDER_RE = /<[A-Z*]+>/g;
const WORD_RE = /[a-z][a-z0-9]*(?:['’][a-z]+)?/g;

/**
 * The words of a template for similarity: lower-case, placeholders and numbers dropped,
 * punctuation (JSON, logfmt, quotes) ignored, stop words removed.
 */
export function wordsOf(template: string): string[] {
  const text = template.replace(PLACEHOLDER_RE, ' ').toLowerCase();
  const out: string[] = [];
  for (const m of text.matchAll(WORD_RE)) {
    const w = m[0];
    if (w.length < 2 || STOP.has(w)) continue;
    out.push(w);
  }
  return out;
}

/** Plain text of a template for a sentence-embedding model: its words, in order. */
export function embeddingText(template: string): string {
  return wordsOf(template).join(' ');
}
