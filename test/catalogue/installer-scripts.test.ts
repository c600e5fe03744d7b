// The catalogue entries of openshift-install and the bootstrap host's scripts (bootkube.sh,
// cluster-bootstrap, the release-image, pivot, node-image, crio-configure, approve-csr and progress
// scripts) read on the corpus's real lines: in every healthy install each symptom they name is
// healed by a later line of the same log, and their narrowed benign entries hold only where their
// program prints.
import { describe, expect, it } from 'vitest';
import { classifierOf, type LineOrigin } from '../../src/catalogue/classify.js';
import { shippedCatalogue } from '../../src/catalogue/shipped.js';
import type { CatalogueEntry } from '../../src/catalogue/types.js';
import { classifyPath } from '../../src/specs/layout.js';
import { loadCorpus } from '../corpus/real/cases.js';

const catalogue = shippedCatalogue();
const classifier = classifierOf(catalogue);

/** The catalogue files of these programs. */
const FILES = /(?:^|\/)(?:installer|install-config|bootkube|cluster-bootstrap|release-image-download|bootstrap-pivot|approve-csr|crio-configure|report-progress)\.yaml$/;
const ours = (e: CatalogueEntry): boolean => FILES.test(e.file);

/** Where a corpus file's lines were printed, as the reader tells the classifier. */
function originOf(path: string): LineOrigin | undefined {
  const spec = classifyPath(`log-bundle-20200101000000/${path}`).spec as { host?: { role?: string }; unit?: string; container?: string } | undefined;
  const role = spec?.host?.role;
  if (role !== 'bootstrap' && role !== 'master') return undefined;
  const source = spec?.unit ?? spec?.container;
  return { host: role, ...(source ? { source } : {}) };
}

/** Every log of the healthy cases: its lines in order and where they were printed. */
function healthyLogs(): { id: string; lines: string[]; where?: LineOrigin }[] {
  const out: { id: string; lines: string[]; where?: LineOrigin }[] = [];
  for (const c of loadCorpus().cases) {
    if (c.expected.status !== 'healthy') continue;
    for (const f of c.files) {
      if (!f.lines) continue;
      const where = originOf(f.path);
      out.push({ id: `${c.id}:${f.path}`, lines: f.lines.split('\n'), ...(where ? { where } : {}) });
    }
    if (c.installer) out.push({ id: `${c.id}:installer`, lines: c.installer.lines.split('\n') });
  }
  return out;
}

describe('the installer and bootstrap scripts in the catalogue', () => {
  it('heals, in every healthy install, each symptom these programs print by a later line of the same log', () => {
    let symptoms = 0;
    for (const log of healthyLogs()) {
      const readings = log.lines.map((l) => ({ line: l, hits: classifier.hits(l, log.where), reading: classifier.classify(l, log.where) }));
      readings.forEach((r, i) => {
        const entry = r.reading?.decisive.entry;
        if (!entry || !ours(entry) || r.reading?.role !== 'symptom') return;
        symptoms++;
        expect(entry.healedBy.length, `${entry.id} names no success that heals it`).toBeGreaterThan(0);
        const healed = readings.slice(i + 1).some((later) => later.hits.some((h) => entry.healedBy.includes(h.entry.id)));
        expect(healed, `${log.id}: "${r.line.trim()}" (${entry.id}) is never healed`).toBe(true);
      });
    }
    // The installer's API and cluster waits and cluster-bootstrap's pod statuses, at least.
    expect(symptoms).toBeGreaterThan(20);
  });

  it('keeps each narrowed benign entry to the units its program prints in', () => {
    // Benign lines of a bootstrap unit (the installer's own have no unit to be narrowed to).
    const narrowed = catalogue.entries.filter((e) => ours(e) && e.role === 'benign' && e.examples.some((x) => x.on));
    expect(narrowed.length).toBeGreaterThan(10);
    for (const e of narrowed) {
      expect(e.on?.sources, e.id).toBeDefined();
      for (const x of e.examples) {
        const [host, source] = (x.on ?? '').split('/');
        expect(classifier.classify(x.line, { host: host === 'master' ? 'master' : 'bootstrap', source })?.decisive.entry.id, x.line).toBe(e.id);
        // The same words printed by another unit are that unit's, not this program's progress.
        expect(classifier.hits(x.line, { host: 'bootstrap', source: 'kubelet' }).map((h) => h.entry.id), x.line).not.toContain(e.id);
      }
    }
  });

  it('reads an error printed on the same line as cluster-bootstrap\'s tear-down as the error (okd#683)', () => {
    const line = 'Error: error while checking pod status: timed out waiting for the condition.Tearing down temporary bootstrap control plane...';
    const r = classifier.classify(line, { host: 'bootstrap', source: 'bootkube' });
    expect(r?.decisive.entry.id).toBe('cluster-bootstrap-pod-status-timeout');
    expect(r?.role).toBe('symptom');
    // Alone on its line, the tear-down is benign: it is printed whether cluster-bootstrap succeeded or not.
    expect(classifier.classify('Nov 26 10:56:52 bootstrap.ocp.ltsai.com bootkube.sh[3494]: Tearing down temporary bootstrap control plane...', { host: 'bootstrap', source: 'bootkube' })?.role).toBe('benign');
  });
});
