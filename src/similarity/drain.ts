// Streaming Drain-style template miner with a bounded number of templates, fed by the reader's line observer.
import { createHash } from 'node:crypto';
import { sourceHost, sourceName, type LogRef } from '../model/source-id.js';
import type { LineObserver, LineTap } from '../specs/line-filter.js';
import type { LineView } from '../text/line-scanner.js';
import type { LogKind } from '../model/types.js';
import { isJournalMarker, parseJournalLine } from '../parsers/journal-text.js';
import { detach } from '../text/lines.js';
import { parseLogLine } from '../parsers/log-line.js';
import { splitLine, templateTokens, WILDCARD, type LineLevel } from './line-template.js';
import { ERROR_LITERALS, errorWeight } from './tokens.js';

/** Tuning of the miner; every field has a default. */
export interface MinerOptions {
  /** Share of a template's tokens a line must repeat exactly to join it (Drain's `st`). */
  similarity?: number;
  /** Tree depth: token count, then `depth - 2` leading tokens, then the leaf. */
  depth?: number;
  /** Children per tree node; past it, tokens share a wildcard child. */
  maxChildren?: number;
  /** Templates kept; lines that would start another are counted as overflow. */
  maxClusters?: number;
  /** Templates per leaf; bounds the per-line scan. */
  maxLeafClusters?: number;
  /** Tokens per line; the rest becomes one wildcard. */
  maxTokens?: number;
  /** A line's time is parsed when it starts a template, first hits a template in a file, or every this many lines. */
  timeEvery?: number;
  /** Which logs to mine. Default: journals, container, serial, installer and Cluster API logs. */
  kinds?: readonly LogKind[];
  /** Gives year-less journal times their year when the file path has no gather id. */
  referenceTime?: number;
}

/** Where a line sits in the bundle. */
export interface LineRef {
  file: string;
  line: number;
  text: string;
}

/** One mined template. */
export interface MinedTemplate {
  /** Stable id: a hash of the template text. */
  id: string;
  /** Masked tokens joined by one space; `<*>` marks positions that varied. */
  template: string;
  count: number;
  /** Earliest time seen (epoch ms), when its lines carry times. */
  firstTime?: number;
  /** Latest time seen (within `timeEvery` lines of the last occurrence). */
  lastTime?: number;
  /** Hosts it was seen on: `bootstrap`, a master's address, or the log's kind. */
  hosts: string[];
  /** Journal units, container names or log kinds it was seen in. */
  sources: string[];
  /** Files it was seen in (at most 32). */
  files: string[];
  /** The level its lines state, when they state one (klog, logfmt, JSON). */
  level?: LineLevel;
  /** 0 (nothing suggests failure) to 1 (an error level). */
  errorWeight: number;
  /** The first line that made it, as written (cut at 1000 characters). */
  example: LineRef;
  /** Where its earliest occurrence was. */
  first: { file: string; line: number };
  /** Where its last occurrence was. */
  last: { file: string; line: number };
}

/** A template proposed as evidence of the failure, with why. */
export interface CandidateTemplate extends MinedTemplate {
  score: number;
  /** Whether it was still seen near the end of its log (or the failure time). */
  persisting: boolean;
}

/** How to pick candidates. */
export interface CandidateOptions {
  /** The failure's time (epoch ms); default: the end of the log where each template first appeared. */
  failureTime?: number;
  /** A template is new when first seen at most this long before the failure. Default 2 h. */
  windowMs?: number;
  /** Most candidates returned. Default 40. */
  limit?: number;
  /** Least error weight (0..1). Default 0.5. */
  minErrorWeight?: number;
}

/** Counters of one mining run. */
export interface MinerStats {
  lines: number;
  templates: number;
  /** Lines that matched no template once the cap was reached. */
  overflow: number;
  files: number;
}

/** A miner: hand `observer` to `readBundle`'s `observeLines`, then read its templates. */
export interface TemplateMiner {
  readonly observer: (target: LogRef) => LineObserver | undefined;
  /**
   * Like `observer`, but sees only the lines holding an error word (`ERROR_LITERALS`), found by
   * the reader's own literal scan: templates that cannot read like a failure are never mined.
   * Counts and times are then those of error-like lines; `noteFileEnd` gives each file its end.
   */
  readonly tap: (target: LogRef) => LineTap | undefined;
  /** A file's real end (its last line and time), for judging which templates are new and still seen. */
  noteFileEnd(file: string, lines: number, endTime: number | undefined): void;
  /** Feeds lines by hand (tests, `kb`); same as the observer of one log. */
  observe(target: LogRef, lines: Iterable<string>): void;
  templates(): MinedTemplate[];
  candidates(options?: CandidateOptions): CandidateTemplate[];
  stats(): MinerStats;
}

const DEFAULT_KINDS: readonly LogKind[] = ['journal', 'container', 'serial', 'installer', 'clusterapi'];
const MAX_FILES_PER_TEMPLATE = 32;
const MAX_EXAMPLE = 1000;
const DEFAULT_WINDOW_MS = 2 * 3_600_000;
/** Skeletons remembered; the cache starts over when full. */
const MAX_CACHE = 1 << 16;
/**
 * Lines of a file after which, none of them new (no template started or first seen in the
 * file), the miner is saturated with it: the reader may spare it most of the rest of a long
 * log (`LogStream`), whose end it still reads.
 */
const SATURATED = 2_000;
/** Error weight from which a template counts as error-like (see `errorWeight`). */
const ERROR_LIKE = 0.5;

interface FileState {
  file: string;
  host: string;
  source: string;
  journal: boolean;
  referenceTime: number | undefined;
  lines: number;
  /** Latest time parsed in this file. */
  now: number | undefined;
  sinceParse: number;
  /** The last line read, parsed for the file's end time once the file is done. */
  lastRaw: string | undefined;
  lastRawLine: number;
  /**
   * Or, when it was read as bytes, where they are: the reader never reuses a chunk (it reads
   * each log's tail from its chunks at the end).
   */
  lastBytes: Buffer | undefined;
  lastStart: number;
  lastEnd: number;
  endTime: number | undefined;
  open: boolean;
  /** Lines mined in this file, and since the last that started a template or first hit one here. */
  mined: number;
  sinceNew: number;
  /** The time text of the last journal line parsed for an error-like template, and its time. */
  timeKey: string;
  timeKeyTime: number | undefined;
}

interface Cluster {
  tokens: string[];
  count: number;
  level: LineLevel | undefined;
  firstTime: number | undefined;
  lastTime: number | undefined;
  firstFile: number;
  firstLine: number;
  lastFile: number;
  lastLine: number;
  files: number[];
  example: LineRef;
  seq: number;
  /** Error-like templates get exact times; the rest are timed every `timeEvery` lines. */
  errorLike: boolean;
}

interface TreeNode {
  children: Map<string, TreeNode> | undefined;
  clusters: Cluster[] | undefined;
}

const LEVEL_RANK: Record<LineLevel, number> = { info: 0, warning: 1, error: 2 };

const LETTER = 1;
const DIGIT = 2;
const CR = 13;
/** Word characters of ASCII: letters and `_` (1), digits (2); everything else separates. */
const CHAR_CLASS = new Uint8Array(128);
for (let c = 0; c < 128; c++) {
  if (c >= 48 && c <= 57) CHAR_CLASS[c] = DIGIT;
  else if ((c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95) CHAR_CLASS[c] = LETTER;
}

/**
 * A key for a line's UTF-8 bytes `buf[from, end)` with every word that holds a digit (numbers,
 * times, addresses, hex ids, `I1122`) reduced to one mark: a 32-bit FNV-style hash and the
 * length of what was hashed. Lines with equal keys differ only in such words, which masking
 * turns into the same placeholders, so they belong to the same template. Bytes past ASCII are
 * letters. Journal lines are keyed from their message on (`journalBodyStart`): times, hosts
 * and identifiers of the header do not make a template.
 */
export function skeletonKeyOfBytes(buf: Buffer, from: number, end: number): number {
  let h = 0x811c9dc5 | 0;
  let w = 0;
  let kept = 0;
  let wordLen = 0;
  let kinds = 0;
  for (let i = from; i < end; i++) {
    const c = buf[i];
    const k = c < 128 ? CHAR_CLASS[c] : LETTER;
    if (k !== 0) {
      kinds |= k;
      w = Math.imul(w ^ c, 0x01000193);
      wordLen++;
      continue;
    }
    if (wordLen > 0) {
      if (kinds & DIGIT) h = Math.imul(h ^ 0x23, 0x01000193);
      else {
        h = Math.imul(h ^ w, 0x01000193);
        kept += wordLen;
      }
      w = 0;
      wordLen = 0;
      kinds = 0;
    }
    h = Math.imul(h ^ c, 0x01000193);
    kept++;
  }
  if (wordLen > 0) {
    h = Math.imul(h ^ (kinds & DIGIT ? 0x23 : w), 0x01000193);
    if (!(kinds & DIGIT)) kept += wordLen;
  }
  // Hash and length together stay a safe integer, so a fast Map key.
  return (h >>> 0) * 0x100000 + (kept & 0xfffff);
}

/** Where a text's UTF-8 bytes go to be keyed; grown as needed. */
let keyScratch = Buffer.allocUnsafe(4096);

/**
 * The key of a line's text: that of its UTF-8 bytes, so a line read as bytes and one read as
 * text get the same key (bytes that are not UTF-8 decode to U+FFFD, and differ).
 */
export function skeletonKey(raw: string, journal = false): number {
  if (keyScratch.length < raw.length * 3) keyScratch = Buffer.allocUnsafe(raw.length * 3);
  const end = keyScratch.write(raw, 0, 'utf8');
  return skeletonKeyOfBytes(keyScratch, journal ? journalBodyStart(keyScratch, 0, end) : 0, end);
}

/**
 * Where the message of a journal line starts (after `host ident[pid]: `) in its bytes
 * `buf[start, end)`, as an offset from `start`: the header repeats on every line and decides
 * nothing about the template. The first `: ` counts when it starts within 200 bytes.
 */
function journalBodyStart(buf: Buffer, start: number, end: number): number {
  const c = buf[start];
  if (c === 32 || c === 9) return 0;
  const last = Math.min(end - 1, start + 200);
  for (let i = start + 1; i < last; i++) if (buf[i] === 58 && buf[i + 1] === 32) return i - start + 2;
  return 0;
}

/** Whether `buf[start, end)` starts with the ASCII text `prefix`. */
function startsWithAscii(buf: Buffer, start: number, end: number, prefix: string): boolean {
  if (end - start < prefix.length) return false;
  for (let i = 0; i < prefix.length; i++) if (buf[start + i] !== prefix.charCodeAt(i)) return false;
  return true;
}

function hasDigit(token: string): boolean {
  for (let i = 0; i < token.length; i++) {
    const c = token.charCodeAt(i);
    if (c >= 48 && c <= 57) return true;
  }
  return false;
}

/** The tree key of a leading token: tokens that vary share the wildcard branch. */
function keyOf(token: string): string {
  return token.charCodeAt(0) === 60 /* < */ || hasDigit(token) ? WILDCARD : token;
}


function hashId(template: string): string {
  return createHash('sha1').update(template).digest('hex').slice(0, 12);
}

class Miner implements TemplateMiner {
  private readonly st: number;
  private readonly prefixDepth: number;
  private readonly maxChildren: number;
  private readonly maxClusters: number;
  private readonly maxLeaf: number;
  private readonly maxTokens: number;
  private readonly every: number;
  private readonly kinds: ReadonlySet<LogKind>;
  private readonly referenceTime: number | undefined;
  private readonly roots = new Map<number, TreeNode>();
  private readonly clusters: Cluster[] = [];
  private readonly files: FileState[] = [];
  /**
   * Files not yet closed, and every file's states by name: closing and noting a file's end walked
   * all files each time, quadratic in a bundle of 100 000 empty container logs.
   */
  private openFiles: FileState[] = [];
  private readonly filesByName = new Map<string, FileState[]>();
  /** Line skeleton hash → template (see `skeletonKey`). */
  private readonly cache = new Map<number, Cluster>();
  private lines = 0;
  private overflow = 0;

  constructor(options: MinerOptions) {
    this.st = options.similarity ?? 0.5;
    this.prefixDepth = Math.max(0, (options.depth ?? 4) - 2);
    this.maxChildren = Math.max(2, options.maxChildren ?? 64);
    this.maxClusters = options.maxClusters ?? 5000;
    this.maxLeaf = options.maxLeafClusters ?? 256;
    this.maxTokens = Math.max(4, options.maxTokens ?? 64);
    this.every = Math.max(1, options.timeEvery ?? 64);
    this.kinds = new Set(options.kinds ?? DEFAULT_KINDS);
    this.referenceTime = options.referenceTime;
  }

  readonly observer = (target: LogRef): LineObserver | undefined => {
    const f = this.open(target);
    return f ? (raw, line) => this.line(f.state, f.index, raw, line) : undefined;
  };

  readonly tap = (target: LogRef): LineTap | undefined => {
    const f = this.open(target);
    if (!f) return undefined;
    return {
      literals: ERROR_LITERALS,
      observe: (raw, line) => this.line(f.state, f.index, raw, line),
      observeLine: (view, line) => {
        if (!view.whole || !this.knownLine(f.state, f.index, view, line)) this.line(f.state, f.index, view.text(), line);
      },
      saturated: () => f.state.mined >= SATURATED && f.state.sinceNew >= SATURATED,
    };
  };

  /** A new file to mine, when it is of a mined kind. */
  private open(target: LogRef): { state: FileState; index: number } | undefined {
    if (!this.kinds.has(target.source.kind)) return undefined;
    // The reader streams one file at a time: a new file means the previous ones are done.
    this.closeFiles();
    const index = this.files.length;
    const journal = target.source.kind === 'journal' || target.source.kind === 'unit-status-journal';
    const state: FileState = {
      file: target.file,
      host: sourceHost(target.source),
      source: sourceName(target.source),
      journal,
      referenceTime: target.referenceTime ?? this.referenceTime,
      lines: 0,
      now: undefined,
      sinceParse: 0,
      lastRaw: undefined,
      lastRawLine: 0,
      lastBytes: undefined,
      lastStart: 0,
      lastEnd: 0,
      endTime: undefined,
      open: true,
      timeKey: '',
      timeKeyTime: undefined,
      mined: 0,
      sinceNew: 0,
    };
    this.files.push(state);
    this.openFiles.push(state);
    const named = this.filesByName.get(state.file);
    if (named) named.push(state);
    else this.filesByName.set(state.file, [state]);
    return { state, index };
  }

  noteFileEnd(file: string, lines: number, endTime: number | undefined): void {
    this.closeFiles();
    for (const f of this.filesByName.get(file) ?? []) {
      f.lines = Math.max(f.lines, lines);
      if (endTime !== undefined && (f.endTime === undefined || endTime > f.endTime)) f.endTime = endTime;
    }
  }

  observe(target: LogRef, lines: Iterable<string>): void {
    const observer = this.observer(target);
    if (!observer) return;
    let n = 0;
    for (const l of lines) observer(l, ++n);
    this.closeFiles();
  }

  private timeOf(state: FileState, raw: string, line: number): number | undefined {
    if (state.journal) return parseJournalLine(raw, line, state.referenceTime)?.time;
    return parseLogLine(raw, line, state.referenceTime).time;
  }

  /**
   * The time of a line of an error-like template. Journal lines that start with the same
   * timestamp text as the previous one share its time (one parse per second of a busy log).
   */
  private errorTime(state: FileState, raw: string, line: number): number | undefined {
    if (!state.journal) return this.timeOf(state, raw, line);
    if (state.timeKey.length > 0 && raw.startsWith(state.timeKey)) return state.timeKeyTime;
    const time = this.timeOf(state, raw, line);
    // `Nov 22 10:15:04 ` and the other short forms put the time in the first 15-32 characters.
    const space = raw.indexOf(' ', raw.indexOf(':') + 1);
    state.timeKey = space > 0 && space <= 40 ? detach(raw.slice(0, space)) : '';
    state.timeKeyTime = time;
    return time;
  }

  /** Counts a line the miner takes (an empty line or a journal marker is not one). */
  private mined(state: FileState, lineNo: number): void {
    this.lines++;
    state.mined++;
    state.sinceNew++;
    state.lastRawLine = lineNo;
  }

  private line(state: FileState, index: number, raw: string, lineNo: number): void {
    state.lines = lineNo;
    if (raw.length === 0) return;
    // Journal markers (`-- Boot ... --`, `-- No entries --`) are not messages.
    if (state.journal && isJournalMarker(raw)) return;
    this.mined(state, lineNo);
    state.lastRaw = raw;
    state.lastBytes = undefined;
    let time: number | undefined;
    let parsed = false;
    if (++state.sinceParse >= this.every) {
      time = this.timeOf(state, raw, lineNo);
      parsed = true;
      state.sinceParse = 0;
      if (time !== undefined) state.now = time;
    }
    // Most lines repeat a known shape with other numbers and ids: a hash of the line with its
    // digit-bearing words blanked finds their template without masking or tree search.
    const key = skeletonKey(raw, state.journal);
    let cluster = this.cache.get(key);
    if (cluster === undefined) {
      const { message, level } = splitLine(raw, state.journal);
      const tokens = templateTokens(message, this.maxTokens);
      if (tokens.length === 0) return;
      cluster = this.place(tokens, level, state, index, raw, lineNo);
      if (cluster === undefined) {
        this.overflow++;
        return;
      }
      if (cluster.count === 0) {
        state.sinceNew = 0;
        // A new template: its first time is this line's.
        if (!parsed) {
          time = this.timeOf(state, raw, lineNo);
          parsed = true;
          if (time !== undefined) state.now = time;
        }
        cluster.firstTime = time;
        cluster.lastTime = time;
      }
      if (this.cache.size >= MAX_CACHE) this.cache.clear();
      this.cache.set(key, cluster);
    }
    cluster.count++;
    if (!parsed && cluster.errorLike) {
      // The last time of an error decides whether it persisted to the failure: be exact.
      time = this.errorTime(state, raw, lineNo);
      parsed = true;
      if (time !== undefined) state.now = time;
    }
    if (cluster.lastFile !== index) {
      state.sinceNew = 0;
      // First hit of this template in this file: its exact time may be its earliest anywhere
      // (files arrive in bundle order, not time order).
      if (!parsed) {
        time = this.timeOf(state, raw, lineNo);
        parsed = true;
        if (time !== undefined) state.now = time;
      }
      if (time !== undefined && (cluster.firstTime === undefined || time < cluster.firstTime)) {
        cluster.firstTime = time;
        cluster.firstFile = index;
        cluster.firstLine = lineNo;
      }
      if (!cluster.files.includes(index) && cluster.files.length < MAX_FILES_PER_TEMPLATE) cluster.files.push(index);
      cluster.lastFile = index;
    }
    cluster.lastLine = lineNo;
    const now = parsed ? time : state.now;
    if (now !== undefined && (cluster.lastTime === undefined || now > cluster.lastTime)) cluster.lastTime = now;
  }

  /**
   * The common case from the line's bytes, without decoding it: a line of a template already
   * seen in this file, whose time (when it needs one) is the previous line's. Does what
   * `line` does for it and returns true; returns false, having done nothing, for any other line.
   */
  private knownLine(state: FileState, index: number, view: LineView, lineNo: number): boolean {
    const buf = view.buf;
    const start = view.start;
    let end = view.end;
    if (end > start && buf[end - 1] === CR) end--;
    if (end === start || (state.journal && end - start >= 3 && buf[start] === 45 && buf[start + 1] === 45 && buf[start + 2] === 32)) {
      // An empty line or a journal marker: counted, not mined.
      state.lines = lineNo;
      return true;
    }
    if (state.sinceParse + 1 >= this.every) return false;
    const key = skeletonKeyOfBytes(buf, state.journal ? start + journalBodyStart(buf, start, end) : start, end);
    const cluster = this.cache.get(key);
    if (cluster === undefined || cluster.lastFile !== index) return false;
    let time: number | undefined;
    const timed = cluster.errorLike;
    if (timed) {
      // Exact times for error-like templates: the previous journal line's, when it starts alike.
      if (!state.journal || state.timeKey.length === 0 || !startsWithAscii(buf, start, end, state.timeKey)) return false;
      time = state.timeKeyTime;
      if (time !== undefined) state.now = time;
    }
    state.lines = lineNo;
    this.mined(state, lineNo);
    state.sinceParse++;
    state.lastRaw = undefined;
    state.lastBytes = buf;
    state.lastStart = start;
    state.lastEnd = end;
    cluster.count++;
    cluster.lastLine = lineNo;
    const now = timed ? time : state.now;
    if (now !== undefined && (cluster.lastTime === undefined || now > cluster.lastTime)) cluster.lastTime = now;
    return true;
  }

  /** The template a masked line joins (merging it), a new one, or undefined past the caps. */
  private place(tokens: string[], level: LineLevel | undefined, state: FileState, index: number, raw: string, lineNo: number): Cluster | undefined {
    const leaf = this.leaf(tokens, false);
    const found = leaf?.clusters ? this.best(leaf.clusters, tokens) : undefined;
    if (found) {
      const t = found.tokens;
      for (let i = 0; i < t.length; i++) if (t[i] !== tokens[i] && t[i] !== WILDCARD) t[i] = WILDCARD;
      if (level !== undefined && (found.level === undefined || LEVEL_RANK[level] > LEVEL_RANK[found.level])) {
        found.level = level;
        found.errorLike ||= errorWeight(found.tokens.join(' '), level) >= ERROR_LIKE;
      }
      return found;
    }
    if (this.clusters.length >= this.maxClusters) return undefined;
    const node = this.leaf(tokens, true) as TreeNode;
    node.clusters ??= [];
    if (node.clusters.length >= this.maxLeaf) return undefined;
    const cluster: Cluster = {
      // Tokens are slices of the decoded chunk: copy them, or each template pins a chunk.
      tokens: tokens.map(detach),
      count: 0,
      level,
      firstTime: undefined,
      lastTime: undefined,
      firstFile: index,
      firstLine: lineNo,
      lastFile: index,
      lastLine: lineNo,
      files: [index],
      example: { file: state.file, line: lineNo, text: detach(raw.length > MAX_EXAMPLE ? raw.slice(0, MAX_EXAMPLE) : raw) },
      seq: this.clusters.length,
      errorLike: errorWeight(tokens.join(' '), level) >= ERROR_LIKE,
    };
    node.clusters.push(cluster);
    this.clusters.push(cluster);
    return cluster;
  }

  /** The leaf for a token sequence; created (under the caps) when `create`. */
  private leaf(tokens: string[], create: boolean): TreeNode | undefined {
    let node: TreeNode | undefined = this.roots.get(tokens.length);
    if (!node) {
      if (!create) return undefined;
      node = { children: undefined, clusters: undefined };
      this.roots.set(tokens.length, node);
    }
    const depth = Math.min(this.prefixDepth, tokens.length);
    for (let d = 0; d < depth; d++) {
      const key = keyOf(tokens[d]);
      let child: TreeNode | undefined = node.children?.get(key);
      if (!child && !create) child = node.children?.get(WILDCARD);
      if (!child) {
        if (!create) return undefined;
        node.children ??= new Map();
        // One slot stays for the wildcard branch that takes every token past the cap.
        const k = node.children.size < this.maxChildren - 1 ? key : WILDCARD;
        child = node.children.get(k);
        if (!child) {
          child = { children: undefined, clusters: undefined };
          node.children.set(k === WILDCARD ? WILDCARD : detach(k), child);
        }
      }
      node = child;
    }
    return node;
  }

  private best(clusters: Cluster[], tokens: string[]): Cluster | undefined {
    let best: Cluster | undefined;
    let bestSim = -1;
    let bestParams = -1;
    for (const c of clusters) {
      const t = c.tokens;
      let same = 0;
      let params = 0;
      for (let i = 0; i < t.length; i++) {
        const a = t[i];
        if (a === WILDCARD) params++;
        else if (a === tokens[i]) same++;
      }
      const sim = same / t.length;
      if (sim > bestSim || (sim === bestSim && params > bestParams)) {
        best = c;
        bestSim = sim;
        bestParams = params;
      }
    }
    return bestSim >= this.st ? best : undefined;
  }

  /** Files that are done get their end time from their last line. */
  private closeFiles(): void {
    if (this.openFiles.length === 0) return;
    const open = this.openFiles;
    this.openFiles = [];
    for (const f of open) {
      if (!f.open) continue;
      f.open = false;
      let end = f.now;
      const last = f.lastRaw ?? f.lastBytes?.toString('utf8', f.lastStart, f.lastEnd);
      if (last !== undefined) {
        const t = this.timeOf(f, last, f.lastRawLine);
        if (t !== undefined && (end === undefined || t > end)) end = t;
      }
      f.endTime = end;
      f.lastRaw = undefined;
      f.lastBytes = undefined;
    }
  }

  templates(): MinedTemplate[] {
    this.closeFiles();
    return this.clusters.map((c) => this.describe(c));
  }

  private describe(c: Cluster): MinedTemplate {
    const template = c.tokens.join(' ');
    const files = c.files.map((i) => this.files[i]);
    const out: MinedTemplate = {
      id: hashId(template),
      template,
      count: c.count,
      hosts: [...new Set(files.map((f) => f.host))].sort(),
      sources: [...new Set(files.map((f) => f.source))].sort(),
      files: files.map((f) => f.file),
      errorWeight: errorWeight(template, c.level),
      example: c.example,
      first: { file: this.files[c.firstFile].file, line: c.firstLine },
      last: { file: this.files[c.lastFile].file, line: c.lastLine },
    };
    if (c.firstTime !== undefined) out.firstTime = c.firstTime;
    if (c.lastTime !== undefined) out.lastTime = c.lastTime;
    if (c.level !== undefined) out.level = c.level;
    return out;
  }

  candidates(options: CandidateOptions = {}): CandidateTemplate[] {
    this.closeFiles();
    const windowMs = options.windowMs ?? DEFAULT_WINDOW_MS;
    const minWeight = options.minErrorWeight ?? ERROR_LIKE;
    // "Still failing": seen in the last quarter of the window (at most 15 minutes).
    const persistMs = Math.min(windowMs / 4, 15 * 60_000);
    const out: { c: CandidateTemplate; seq: number }[] = [];
    for (const cluster of this.clusters) {
      const t = this.describe(cluster);
      if (t.errorWeight < minWeight) continue;
      const firstFile = this.files[cluster.firstFile];
      const lastFile = this.files[cluster.lastFile];
      const ref = options.failureTime ?? firstFile.endTime;
      let isNew: boolean;
      let persisting: boolean;
      if (t.firstTime !== undefined && ref !== undefined) {
        isNew = t.firstTime >= ref - windowMs;
        const end = options.failureTime ?? lastFile.endTime ?? ref;
        persisting = t.lastTime !== undefined && t.lastTime >= end - persistMs;
      } else {
        // No times (serial consoles): judge by position; the second half of the file is "late".
        isNew = cluster.lastLine >= lastFile.lines / 2;
        persisting = cluster.lastLine >= lastFile.lines * 0.9;
      }
      if (!isNew) continue;
      const countFactor = 1 + 0.15 * Math.min(3, Math.log10(t.count));
      const hostFactor = 1 + 0.1 * Math.min(3, t.hosts.length - 1);
      const score = t.errorWeight * (persisting ? 1 : 0.7) * countFactor * hostFactor;
      out.push({ c: { ...t, score: Math.round(score * 1000) / 1000, persisting }, seq: cluster.seq });
    }
    out.sort((a, b) => b.c.score - a.c.score || (a.c.firstTime ?? 0) - (b.c.firstTime ?? 0) || a.seq - b.seq);
    return out.slice(0, options.limit ?? 40).map((o) => o.c);
  }

  stats(): MinerStats {
    return { lines: this.lines, templates: this.clusters.length, overflow: this.overflow, files: this.files.length };
  }
}

/** A new streaming template miner. */
export function createMiner(options: MinerOptions = {}): TemplateMiner {
  return new Miner(options);
}
