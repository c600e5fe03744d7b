// Which cases a triage run covers, found in folders as CI jobs and support cases leave them:
// a folder holding one bundle (and perhaps the installer's output, console captures, journals
// and notes) is one case, read whole so the reader pairs the bundle with what it finds by
// content; a folder holding several bundles gives one case per bundle; folders are searched at
// any depth. What a file is comes from its bytes (archive magic, the reader's content sniff), so
// a README is never taken for a bundle.
import { createHash } from 'node:crypto';
import { open, readdir, stat } from 'node:fs/promises';
import { basename, join, relative } from 'node:path';
import { detectFormat } from '../archive/detect.js';
import { classifyLooseText, KIND_SNIFF_BYTES } from '../ingest/loose-text.js';
import { pushAll } from '../util/arrays.js';

/** One unit of triage: what is analyzed and what it is called in the summary. */
export interface TriageCase {
  /** Stable name: the path below the folder argument it was found in (the file's name for a file argument). */
  name: string;
  /** The path analyzed: a bundle, or a case folder read whole. */
  path: string;
  /** Files of a case folder that are neither its bundle nor text the reader reads (installer output, a journal, a console capture). */
  ignored?: string[];
}

export interface CollectedCases {
  cases: TriageCase[];
  /** Files outside every case that are no bundle (READMEs, notes, scripts), relative to their argument. */
  ignored: string[];
}

const BUNDLE_MARKERS = ['bootstrap', 'control-plane', 'resources', 'gather.log', 'failed-units.txt', 'rendered-assets'];
/** Names an upload meant as a bundle has; such a file that is no archive is listed as unreadable. */
const ARCHIVE_NAME = /\.(tar\.gz|tgz|tar|zip)$/i;
/** Folders deeper than this below an argument are not searched (a tree of CI artifacts is shallower). */
const MAX_DEPTH = 16;

async function isUnpackedBundle(dir: string): Promise<boolean> {
  const names = await readdir(dir).catch(() => [] as string[]);
  if (names.some((n) => BUNDLE_MARKERS.includes(n))) return true;
  // `log-bundle-<id>/` inside a folder of its own name.
  return names.length === 1 && /^log-bundle/.test(names[0]) && (await isUnpackedBundle(join(dir, names[0])));
}

/** What a file is: an archive, the installer's output, a journal or console capture, or something else. */
type FileKind = 'bundle' | 'installer-output' | 'capture' | 'other';

/** What a file is, by its first bytes (as the reader tells it: classifyLooseText). */
async function kindOf(file: string): Promise<FileKind> {
  const handle = await open(file, 'r').catch(() => undefined);
  if (!handle) return ARCHIVE_NAME.test(file) ? 'bundle' : 'other';
  try {
    const head = Buffer.alloc(KIND_SNIFF_BYTES);
    const { bytesRead } = await handle.read(head, 0, KIND_SNIFF_BYTES, 0);
    const bytes = head.subarray(0, bytesRead);
    if (detectFormat(bytes) !== 'unknown') return 'bundle';
    // A cut-off upload named like a bundle is still one the user meant: listed as unreadable.
    if (ARCHIVE_NAME.test(file)) return 'bundle';
    const text = classifyLooseText(bytes, basename(file));
    return text === undefined ? 'other' : text.kind === 'installer-output' ? 'installer-output' : 'capture';
  } finally {
    await handle.close();
  }
}

/** A case found below a folder, with how many bundles it holds (0: installer output alone). */
interface Found {
  case: TriageCase;
  bundles: number;
}

/** What a folder's subtree gave: its cases, and the files outside them that are no bundle. */
interface Subtree {
  found: Found[];
  ignored: string[];
}

/** Every file below `dir` that belongs to its cases, made relative to `dir` (for `ignored`). */
function under(dir: string, c: TriageCase): string[] {
  return (c.ignored ?? []).map((f) => relative(dir, join(c.path, f)));
}

/**
 * Cases below `dir` (itself included), with names relative to `base`. The same rule at every
 * depth: a folder is one case when everything in it that is a bundle, the installer's output or
 * a capture (a journal, a serial console) makes at most one bundle, whether those files sit in
 * it or in one folder below it (a CI job's `build-log.txt` one folder above its bundle, or a
 * bundle beside a `logs/` folder holding the installer's log). A folder holding only other
 * cases' folders is no case itself.
 */
async function casesIn(dir: string, base: string, depth: number): Promise<Subtree> {
  const rel = (p: string): string => relative(base, p) || basename(p);
  if (await isUnpackedBundle(dir)) return { found: [{ case: { name: rel(dir), path: dir }, bundles: 1 }], ignored: [] };
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const bundles: string[] = [];
  const logs: string[] = [];
  const captures: string[] = [];
  const others: string[] = [];
  const nested: Found[] = [];
  const nestedIgnored: string[] = [];
  for (const e of entries) {
    const full = join(dir, e.name);
    if (e.isFile()) {
      const kind = await kindOf(full);
      if (kind === 'bundle') bundles.push(full);
      else if (kind === 'installer-output') logs.push(full);
      else if (kind === 'capture') captures.push(full);
      else others.push(full);
    } else if (e.isDirectory() && !e.name.startsWith('.')) {
      if (await isUnpackedBundle(full)) bundles.push(full);
      else if (depth < MAX_DEPTH) {
        const sub = await casesIn(full, base, depth + 1);
        pushAll(nested, sub.found);
        pushAll(nestedIgnored, sub.ignored);
      }
    }
    // Symlinks and special files are never followed.
  }
  const nestedBundles = nested.reduce((n, f) => n + f.bundles, 0);
  const mine = bundles.length + logs.length + captures.length;
  // One bundle at most, here and in the one case below, and something of the case here: the
  // folder is the case, read whole, so the reader pairs the bundle with the log and the captures
  // by content (every capture is read; of several installer outputs without a bundle, the first).
  if (mine > 0 && nested.length <= 1 && bundles.length + nestedBundles <= 1) {
    const only: TriageCase = { name: rel(dir), path: dir };
    const spare = bundles.length + nestedBundles === 0 ? logs.slice(1) : [];
    const rest = [...spare, ...others, ...nestedIgnored.map((f) => join(base, f))].map((p) => relative(dir, p));
    for (const n of nested) pushAll(rest, under(dir, n.case));
    if (rest.length > 0) only.ignored = rest.sort();
    return { found: [{ case: only, bundles: bundles.length + nestedBundles }], ignored: [] };
  }
  // Several bundles: each is a case of its own; a log or a capture beside them belongs to none of them.
  return {
    found: [...bundles.map((p) => ({ case: { name: rel(p), path: p }, bundles: 1 })), ...nested],
    ignored: [...nestedIgnored, ...logs.map(rel), ...captures.map(rel), ...others.map(rel)],
  };
}

/** What triage looks for, said when it finds none of it. */
export const LOOKED_FOR =
  'looked for log bundles (.tar.gz, .tar or .zip, or unpacked folders with bootstrap/, control-plane/, resources/ or gather.log), installer output, journals and serial console captures, at any depth';

/** A folder argument in which no case was found: a mistyped path, never a passing run. */
export class NoCasesError extends Error {
  override readonly name = 'NoCasesError';
}

/** The cases for the arguments: files are cases as given, folders are searched. Throws NoCasesError. */
export async function collectCases(args: readonly string[]): Promise<CollectedCases> {
  const cases: TriageCase[] = [];
  const ignored: string[] = [];
  for (const arg of args) {
    const st = await stat(arg).catch(() => undefined);
    if (!st?.isDirectory()) {
      cases.push({ name: basename(arg), path: arg }); // a missing file is reported as unreadable, with the reason
      continue;
    }
    const sub = await casesIn(arg, arg, 0);
    if (sub.found.length === 0) {
      const what = sub.ignored.length > 0 ? `${sub.ignored.length} file(s), none a bundle` : 'an empty folder';
      throw new NoCasesError(`${arg}: no case to triage in ${what} (${LOOKED_FOR})`);
    }
    for (const f of sub.found) cases.push(f.case);
    pushAll(ignored, sub.ignored);
  }
  return { cases, ignored };
}

/** The paths to analyze for the arguments (see collectCases). */
export async function collectBundles(args: readonly string[]): Promise<string[]> {
  return (await collectCases(args)).cases.map((c) => c.path);
}

/**
 * Whether a case belongs to shard `index` of `count`: by a hash of its name, so every pod of a
 * job, given the same tree, agrees on the split without talking to the others.
 */
export function inShard(name: string, index: number, count: number): boolean {
  if (count <= 1) return true;
  return createHash('sha256').update(name).digest().readUInt32BE(0) % count === index;
}
