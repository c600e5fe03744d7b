// Lays a real case out the way the gather scripts would: a `log-bundle-<ID>/` tree packed as a
// real tar.gz, and the installer's output as a file of its own. Lines stay verbatim; a journal
// line posted without its header gets one (gather time, host, the unit's usual identifier).
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import * as tar from 'tar';
import { hostLabel } from '../../../src/model/source-id.js';
import { classifyPath } from '../../../src/specs/layout.js';
import { parseJournalLine, parseJournalMarker } from '../../../src/parsers/journal-text.js';
import type { CaseFile, RealCase } from './cases.js';

/** How to lay a case out: where the installer output goes, whether headerless journal lines get a header. */
export interface LayoutOptions {
  /** `beside`: its own file, given with --install-log (default); `inside`: a file in the bundle's root. */
  installer?: 'beside' | 'inside';
  /** Give journal lines posted without a header one (default true). */
  headers?: boolean;
}

/** What `bootlens analyze` is given for a case. */
export interface LaidOut {
  /** The bundle (a tar.gz), or the installer output alone when the thread showed nothing else. */
  input: string;
  /** The installer output beside the bundle (`--install-log`), when there is both. */
  installLog?: string;
  gatherId: string;
}

/** The identifiers units log under, as journalctl prints them. */
const IDENTIFIERS: Record<string, string> = {
  bootkube: 'bootkube.sh',
  'release-image': 'release-image-download.sh',
  'release-image-pivot': 'release-image-pivot',
  'crio-configure': 'crio-configure.sh',
  crio: 'crio',
  kubelet: 'kubenswrapper',
  'approve-csr': 'approve-csr.sh',
  progress: 'report-progress.sh',
  'node-image-pull': 'node-image-pull.sh',
  'machine-config-daemon-firstboot': 'machine-config-daemon',
  'machine-config-daemon-host': 'machine-config-daemon',
};

/** A bundle root for classifying a case's paths. */
const ROOT_FOR_PATHS = 'log-bundle-20200101000000';

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const ISO = /\b(20\d\d)-(\d\d)-(\d\d)[T ](\d\d):(\d\d):(\d\d)/g;

function pad(n: number, w = 2): string {
  return String(n).padStart(w, '0');
}

/** The gather id: an hour after the latest dated line of the case, else a fixed one. */
export function gatherIdOf(c: RealCase): string {
  let latest = 0;
  const texts = [...c.files.map((f) => f.lines ?? JSON.stringify(f.json ?? '')), c.installer?.lines ?? ''];
  for (const t of texts) {
    for (const m of t.matchAll(ISO)) {
      const ms = Date.UTC(+m[1], +m[2] - 1, +m[3], +m[4], +m[5], +m[6]);
      if (ms > latest && ms < Date.UTC(2030, 0, 1)) latest = ms;
    }
  }
  const d = new Date(latest > 0 ? latest + 3600_000 : Date.UTC(2023, 5, 1, 12, 0, 0));
  return `${d.getUTCFullYear()}${pad(d.getUTCMonth() + 1)}${pad(d.getUTCDate())}${pad(d.getUTCHours())}${pad(d.getUTCMinutes())}${pad(d.getUTCSeconds())}`;
}

function gatherTime(id: string): Date {
  return new Date(Date.UTC(+id.slice(0, 4), +id.slice(4, 6) - 1, +id.slice(6, 8), +id.slice(8, 10), +id.slice(10, 12), +id.slice(12, 14)));
}

/** Journal text with a header on every line that was posted without one. */
export function journalText(lines: string, unit: string, host: string, gatherId: string): string {
  const posted = lines.replace(/\n+$/, '').split('\n');
  const ident = IDENTIFIERS[unit] ?? unit;
  // Headerless lines are stamped a little before the gather, one second apart, in order.
  const base = gatherTime(gatherId).getTime() - (posted.length + 60) * 1000;
  return (
    posted
      .map((line, i) => {
        if (line.length === 0 || /^\s/.test(line) || parseJournalMarker(line) || parseJournalLine(line, i + 1, base)) return line;
        const t = new Date(base + i * 1000);
        const stamp = `${MONTHS[t.getUTCMonth()]} ${pad(t.getUTCDate())} ${pad(t.getUTCHours())}:${pad(t.getUTCMinutes())}:${pad(t.getUTCSeconds())}`;
        return `${stamp} ${host} ${ident}[${1000 + (unit.length % 9) * 111}]: ${line}`;
      })
      .join('\n') + '\n'
  );
}

/** The text a case file gets in the bundle. */
function fileText(f: CaseFile, gatherId: string, headers: boolean): string {
  if (f.json !== undefined) return `${JSON.stringify(f.json, null, 2)}\n`;
  const lines = f.lines ?? '';
  const spec = classifyPath(`log-bundle-${gatherId}/${f.path}`).spec;
  if (headers && spec?.host && spec.unit !== undefined && (spec.kind === 'journal' || spec.kind === 'unit-status-journal')) {
    return journalText(lines, spec.unit, hostLabel(spec.host), gatherId);
  }
  return lines.endsWith('\n') ? lines : `${lines}\n`;
}

const isContainerFile = (path: string): boolean => /^container-(?:log|inspect)$/.test(classifyPath(`${ROOT_FOR_PATHS}/${path}`).spec?.kind ?? '');

/**
 * A container file named without its id gets one, as `crictl`/`podman` files always have: a
 * `.log` or `.inspect` the layout reads as a container's only with a made-up id after its name
 * (`containers/etcd-member.log` would otherwise read as etcdctl output).
 */
function withContainerId(path: string): string {
  const m = /^(.*)\.(log|inspect)$/.exec(path);
  if (!m || isContainerFile(path)) return path;
  let h = 0;
  for (const ch of m[1].slice(m[1].lastIndexOf('/') + 1)) h = (Math.imul(h, 31) + ch.charCodeAt(0)) >>> 0;
  const withId = `${m[1]}-${h.toString(16).padStart(8, '0').repeat(8)}.${m[2]}`;
  return isContainerFile(withId) ? withId : path;
}

/**
 * Writes a case below `dir`: `log-bundle-<ID>.tar.gz` when the thread showed bundle files, and
 * the installer's output as `installer-output.txt` (a neutral name: it is found by content).
 */
export async function layOut(c: RealCase, dir: string, options: LayoutOptions = {}): Promise<LaidOut> {
  const gatherId = gatherIdOf(c);
  mkdirSync(dir, { recursive: true });
  let installLog: string | undefined;
  if (c.installer) {
    installLog = join(dir, 'installer-output.txt');
    const text = c.installer.lines;
    writeFileSync(installLog, text.endsWith('\n') ? text : `${text}\n`);
  }
  if (c.files.length === 0) return { input: installLog as string, gatherId };
  const root = `log-bundle-${gatherId}`;
  const tree = join(dir, 'tree');
  const paths: string[] = [];
  for (const f of c.files) {
    const rel = `${root}/${withContainerId(f.path)}`;
    const file = join(tree, rel);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, fileText(f, gatherId, options.headers ?? true), { flag: 'a' });
    if (!paths.includes(rel)) paths.push(rel);
  }
  if (installLog && options.installer === 'inside') {
    // A CI artifact or a support upload: the installer's output inside the bundle, under a name of its own.
    const rel = `${root}/openshift-install-output.txt`;
    writeFileSync(join(tree, rel), readFileSync(installLog));
    paths.push(rel);
    installLog = undefined;
  }
  const bundle = join(dir, `${root}.tar.gz`);
  await tar.create({ gzip: true, file: bundle, cwd: tree, portable: true }, paths);
  return { input: bundle, ...(installLog ? { installLog } : {}), gatherId };
}
