// The host's OS layer read through the catalogue, on real lines of the corpus as the readers hand
// them to rules (journal text after `identifier[pid]: `, serial lines after the kernel stamp):
// systemd's lines say how a unit ended, never why; a healthy install's OS lines are never
// failures, and a benign entry holds only where it was written for; in Ignition's and the
// machine-config daemon's error chains the decisive link decides, not the program's wrapper.
import { describe, expect, it } from 'vitest';
import { classifierOf, type LineOrigin, type Reading } from '../../src/catalogue/classify.js';
import { shippedCatalogue } from '../../src/catalogue/shipped.js';
import { parseJournalLine } from '../../src/parsers/journal-text.js';
import { parseLogLine } from '../../src/parsers/log-line.js';
import { loadCorpus, type RealCase } from '../corpus/real/cases.js';

const catalogue = shippedCatalogue();
const classifier = classifierOf(catalogue);
const cases = loadCorpus().cases;

/** The programs of the OS layer, by the catalogue file that holds their messages. */
const OS_FILES = /(?:^|\/)(?:ignition|machine-config-server|machine-config-daemon|rpm-ostree|linux|systemd|chrony|NetworkManager)\.yaml$/;

interface RealLine {
  caseId: string;
  text: string;
  identifier?: string;
  where?: LineOrigin;
}

/** Where a file of the layout was printed: its host role and unit or container. */
function originOfPath(path: string): LineOrigin | undefined {
  const m = /^(bootstrap|control-plane\/[^/]+)\/(?:journals|unit-status|containers|pods)\/([^/]+?)(?:\.log|\.txt)?$/.exec(path);
  return m ? { host: m[1] === 'bootstrap' ? 'bootstrap' : 'master', source: m[2] } : undefined;
}

/** Every posted line of a case as the reader hands it on: journal text, or a serial line after its stamp. */
function linesOf(c: RealCase): RealLine[] {
  const out: RealLine[] = [];
  for (const f of c.files) {
    const where = originOfPath(f.path);
    for (const raw of (f.lines ?? '').split('\n')) {
      if (!raw.trim()) continue;
      const j = parseJournalLine(raw, 1, Date.UTC(2025, 0, 1));
      if (j?.identifier) out.push({ caseId: c.id, text: j.text, identifier: j.identifier, ...(where ? { where } : {}) });
      else out.push({ caseId: c.id, text: parseLogLine(raw, 1, undefined).text, ...(where ? { where } : {}) });
    }
  }
  return out;
}

function caseById(id: string): RealCase {
  const c = cases.find((x) => x.id === id);
  if (!c) throw new Error(`no corpus case ${id}`);
  return c;
}

/** The line of a case that contains `words`, read where it was printed. */
function lineOf(id: string, words: string): RealLine {
  const l = linesOf(caseById(id)).find((x) => x.text.includes(words));
  if (!l) throw new Error(`${id} has no line with "${words}"`);
  return l;
}

function read(l: RealLine): Reading | undefined {
  return classifier.classify(l.text, l.where);
}

const isOsEntry = (r: Reading | undefined): boolean => r !== undefined && OS_FILES.test(r.decisive.entry.file);

describe('the OS layer in the catalogue, on real lines', () => {
  it("reads systemd's own lines as how a unit ended: symptoms of no category, each saying what to collect", () => {
    const systemdLines = cases.flatMap(linesOf).filter((l) => l.identifier === 'systemd');
    const failures = systemdLines.map((l) => ({ l, r: read(l) })).filter(({ r }) => r?.role === 'symptom' || r?.role === 'cause');
    // Real failed units of the corpus: bootkube, crio-configure, release-image-pivot.
    expect(new Set(failures.map(({ l }) => l.caseId)).size).toBeGreaterThanOrEqual(6);
    for (const { l, r } of failures) {
      expect(r?.decisive.entry.file, l.text).toMatch(/systemd\.yaml$/);
      expect(r?.role, l.text).toBe('symptom');
      expect(r?.category, l.text).toBe('unknown');
      expect(r?.decisive.entry.collect.join(' '), l.text).toMatch(/journalctl -b -u <unit>/);
    }
    // The restart loop and the failed result of mco#850's bootkube, by name.
    expect(read(lineOf('machine-config-operator-850-mcc-not-in-payload', 'restart counter is at 60'))?.decisive.entry.id).toBe('systemd-unit-restarting');
    expect(read(lineOf('okd-446-crio-configure-no-conf', 'Failed to start Configure CRI-O'))?.decisive.entry.id).toBe('systemd-unit-start-failed');
  });

  it("never reads a healthy install's OS lines as a failure", () => {
    const healthy = cases.filter((c) => c.expected.status === 'healthy').flatMap(linesOf);
    const os = healthy.map((l) => ({ l, r: read(l) })).filter(({ r }) => isOsEntry(r));
    expect(os.length).toBeGreaterThanOrEqual(3);
    for (const { l, r } of os) expect(['benign', 'success'], `${l.caseId}: ${l.text}`).toContain(r?.role);
  });

  it('holds a benign entry only where it was written for: the same words elsewhere still count', () => {
    const killed = lineOf('healthy-okd-2288-node-image-finish-failed-unit', 'Main process exited, code=killed, status=15/TERM');
    expect(killed.where).toEqual({ host: 'bootstrap', source: 'node-image-finish' });
    expect(read(killed)?.decisive.entry.id).toBe('systemd-node-image-finish-isolate');
    expect(read(killed)?.role).toBe('benign');
    // The same words from bootkube, or from a master's node-image-finish, are a symptom.
    for (const where of [{ host: 'bootstrap', source: 'bootkube' }, { host: 'master', source: 'node-image-finish' }] as const) {
      const r = classifier.classify(killed.text, where);
      expect(r?.decisive.entry.id, JSON.stringify(where)).toBe('systemd-main-process-exited');
      expect(r?.role).toBe('symptom');
    }
    const filtered = lineOf('okd-2222-node-image-pull-ostree-refs', 'non-ostree compatible file paths');
    expect(read(filtered)?.role).toBe('benign');
    expect(classifier.classify(filtered.text, { host: 'bootstrap', source: 'bootkube' })).toBeUndefined();
  });

  it("decides an Ignition fetch by its error's target, not by Ignition's wrapper", () => {
    const fetches: [string, string, string][] = [
      ['helpernode-228-static-ip-no-dns', 'lookup api-int.ocp4.foc.ibm on [::1]:53', 'dns'],
      ['hetzner-ocp4-294-routed-firewalld-22623', 'no route to host', 'network-connectivity'],
      ['ocp4-upi-powervm-269-fsp-clock', 'is before', 'clock-skew'],
      ['installer-3905-master-ignition-expired', 'certificate has expired', 'certificate-expired'],
    ];
    for (const [id, words, category] of fetches) {
      const l = lineOf(id, words);
      expect(l.text, id).toMatch(/GET error: /);
      const hits = classifier.hits(l.text, l.where).map((h) => h.entry.id);
      expect(hits, id).toContain('ignition-fetch-failed');
      const r = read(l);
      expect(r?.decisive.entry.id, id).not.toBe('ignition-fetch-failed');
      expect(r?.category, id).toBe(category);
    }
  });

  it('reads the bootstrap machine-config server refusing a worker as ignition, at the workers step', () => {
    const r = read(lineOf('installer-10590-gcp-ilb-bootstrap-mcs-worker', 'refusing to serve'));
    expect(r?.decisive.entry.id).toBe('mcs-refuses-pool');
    expect(r?.decisive.entry.stage).toBe('workers');
    expect(r?.category).toBe('ignition');
    expect(r?.decisive.captures.pool).toBe('worker');
  });

  it('names the boot media for a read-only /sysroot, and leaves a bare read-only write without a category', () => {
    const sysroot = read(lineOf('okd-2018-pivot-sysroot-readonly', 'Remounting /sysroot read-write'));
    expect(sysroot?.decisive.entry.id).toBe('ostree-sysroot-read-only');
    expect(sysroot?.category).toBe('install-config');
    // `touch: ... Read-only file system` on the pivot's probe of /usr is printed on every run
    // (bootstrap-pivot.sh tests whether /usr is writable): benign there.
    const touch = read(lineOf('okd-2041-scos-pivot-ext4-orphan-file', "cannot touch '/usr/.test'"));
    expect(touch?.decisive.entry.id).toBe('bootstrap-pivot-usr-probe');
    expect(touch?.role).toBe('benign');
    expect(touch?.category).toBe('unknown');
  });

  it("reads the machine-config daemon's failed rebase by its decisive link, which here names nothing", () => {
    const l = lineOf('okd-1830-master-firstboot-rpm-ostree-skopeo', 'failed to update OS to');
    const hits = classifier.hits(l.text, l.where).map((h) => h.entry.id);
    expect(hits).toEqual(expect.arrayContaining(['mcd-os-update-failed', 'skopeo-proxy-exited']));
    const r = read(l);
    expect(r?.decisive.entry.id).toBe('skopeo-proxy-exited');
    expect(r?.role).toBe('symptom');
    expect(r?.category).toBe('unknown');
  });
});
