// Copies a bundle with its files edited, nested archives included. `renamedCopy`: every value
// that differs from one cluster or run to the next renamed (CSR names, pod name suffixes, node
// names, IP addresses, digests and container ids, ephemeral ports, durations), the same way
// everywhere (file contents, paths, nested archives), so the copy is the same failure on "another
// cluster"; certificates are left alone. `editedCopy`: any edit of the text files.
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { constants, gunzipSync, gzipSync } from 'node:zlib';
import * as tar from 'tar';
import { tempDir } from '../support/fixture-bundle.js';

const CONSONANTS = 'bcdfghjklmnpqrstvwxz';
const VOWELS = 'aeiouy';
const DIGITS = '0123456789';
const HEX_LETTERS = 'abcdef';

function rotate(ch: string, alphabet: string, by: number): string {
  const i = alphabet.indexOf(ch);
  return i < 0 ? ch : alphabet[(i + by) % alphabet.length];
}

/** Another name of the same shape: consonants, vowels and digits each stay what they were. */
function otherSuffix(s: string): string {
  return [...s].map((c) => rotate(rotate(rotate(c, CONSONANTS, 7), VOWELS, 2), DIGITS, 3)).join('');
}

function otherHex(s: string): string {
  return [...s].map((c) => rotate(rotate(c, DIGITS, 5), HEX_LETTERS, 1)).join('');
}

const IP_PREFIXES = new Map<string, string>();

/** The first two octets move to a prefix of their own: subnets and routes keep their shape. */
function otherIp(a: string, b: string): string {
  const key = `${a}.${b}`;
  let to = IP_PREFIXES.get(key);
  if (!to) {
    to = `172.${100 + IP_PREFIXES.size}`;
    IP_PREFIXES.set(key, to);
  }
  return to;
}

const KEEP_IP = /^(?:0|127|255|22[4-9]|23\d|169)$/;

/** The renames, in order; each is a pure function of the value, hence consistent. */
function renameText(text: string): string {
  return text
    .replace(/\b(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})\b/g, (m, a: string, b: string, c: string, d: string) =>
      KEEP_IP.test(a) || Number(a) > 255 || Number(b) > 255 ? m : `${otherIp(a, b)}.${c}.${d}`,
    )
    .replace(/\b[0-9a-f]{12,64}\b/g, (m) => (/[a-f]/.test(m) && /\d/.test(m) ? otherHex(m) : m))
    .replace(/\bcsr-([a-z0-9]{5})\b/g, (_m, s: string) => `csr-${otherSuffix(s)}`)
    .replace(/(?<=[a-z0-9]-)([a-z0-9]{5})(?![a-z0-9.-])/g, (m) => ((/\d/.test(m) && /[a-z]/.test(m)) || !/[aeiouy]/.test(m) ? otherSuffix(m) : m))
    .replace(/\b(master|worker)-(\d)\b/g, (_m, role: string, n: string) => `${role === 'master' ? 'ctl' : 'cmp'}${n}-${role === 'master' ? 'cp' : 'wk'}`)
    .replace(/(?<=\d:)([3-6]\d{4})\b/g, (p) => String(Number(p) - 1001))
    .replace(/\b(\d+)m(\d+)s\b/g, (_m, min: string, s: string) => `${Number(min) + 2}m${s}s`);
}

const PEM = /-----BEGIN [A-Z ]+-----[\s\S]*?-----END [A-Z ]+-----/g;

/** Text renamed outside PEM blocks (base64 must not change). */
function renameOutsidePem(text: string): string {
  let out = '';
  let last = 0;
  for (const m of text.matchAll(PEM)) {
    out += renameText(text.slice(last, m.index)) + m[0];
    last = (m.index ?? 0) + m[0].length;
  }
  return out + renameText(text.slice(last));
}

function isGzip(b: Buffer): boolean {
  return b.length > 2 && b[0] === 0x1f && b[1] === 0x8b;
}

function isTar(b: Buffer): boolean {
  return b.length > 262 && b.subarray(257, 262).toString('latin1') === 'ustar';
}

/** Extracts an archive; returns its entry paths in archive order (the copy keeps that order). */
async function extract(archive: string, into: string): Promise<string[]> {
  mkdirSync(into, { recursive: true });
  const bytes = readFileSync(archive);
  // A truncated bundle is read as far as it goes, like bootlens reads it.
  const plain = join(tempDir('bootlens-rename-tar-'), 'a.tar');
  writeFileSync(plain, isGzip(bytes) ? gunzipSync(bytes, { finishFlush: constants.Z_SYNC_FLUSH }) : bytes);
  const order: string[] = [];
  await tar.x({ file: plain, cwd: into, strict: false, onReadEntry: (e) => void order.push(e.path) }).catch(() => undefined);
  return order;
}

/** How a copy differs: names of files and folders, and the text of text files (by path inside the bundle). */
interface Edit {
  name: (name: string) => string;
  text: (text: string, path: string) => string;
}

const RENAME: Edit = { name: renameText, text: (t) => renameOutsidePem(t) };

/** Edits every file and folder under `dir` in place, recursing into nested archives. */
async function editTree(dir: string, edit: Edit, root: string = dir): Promise<void> {
  for (const name of readdirSync(dir)) {
    let full = join(dir, name);
    const renamed = edit.name(name);
    if (renamed !== name) {
      renameSync(full, join(dir, renamed));
      full = join(dir, renamed);
    }
    if (statSync(full).isDirectory()) {
      await editTree(full, edit, root);
      continue;
    }
    const bytes = readFileSync(full);
    const inner = isGzip(bytes) ? gunzipSync(bytes, { finishFlush: constants.Z_SYNC_FLUSH }) : bytes;
    if (isTar(inner)) {
      await editArchive(full, full, isGzip(bytes), edit);
      continue;
    }
    if (inner.includes(0)) continue; // binary: left as it is
    const text = Buffer.from(edit.text(inner.toString('utf8'), relative(root, full).split('\\').join('/')));
    writeFileSync(full, isGzip(bytes) ? gzipSync(text) : text);
  }
}

async function editArchive(from: string, to: string, gzip: boolean, edit: Edit): Promise<void> {
  const work = tempDir('bootlens-rename-');
  const order = await extract(from, work);
  await editTree(work, edit);
  mkdirSync(dirname(to), { recursive: true });
  const paths = order.map((p) => p.split('/').map(edit.name).join('/')).filter((p) => existsSync(join(work, p)));
  await tar.c({ cwd: work, file: to, gzip, portable: true, noDirRecurse: true }, paths);
}

/** Writes the renamed copy of the `.tar.gz` bundle `from` to `to`. */
export async function renamedCopy(from: string, to: string): Promise<void> {
  await editArchive(from, to, true, RENAME);
}

/**
 * Writes a copy of the `.tar.gz` bundle `from` to `to` with `text` applied to every text file
 * (given its path inside the archive it sits in, and its text); names are kept.
 */
export async function editedCopy(from: string, to: string, text: (text: string, path: string) => string): Promise<void> {
  await editArchive(from, to, true, { name: (n) => n, text });
}

export { renameText };
