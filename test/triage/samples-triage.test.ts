// Triage on the committed samples as they sit in the repo (folders of one bundle plus notes),
// on copies with every per-cluster value renamed, and on copies with a healed error added: the
// verdicts agree with each sample's expected.json, the signatures survive the renames and the
// healed error, and every record fits the schema with every field present.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { collectCases } from '../../src/triage/collect.js';
import { analyzeMany } from '../../src/triage/pool.js';
import { isTriageRecord, TRIAGE_RECORD_SCHEMA, type TriageRecord } from '../../src/triage/record.js';
import { schemaValidator } from '../../src/util/schema.js';
import { tempDir } from '../support/fixture-bundle.js';
import { editedCopy, renamedCopy, renameText } from './rename-bundle.js';

const SAMPLES = join(process.cwd(), 'samples');
const NAMES = readdirSync(SAMPLES, { withFileTypes: true })
  .filter((d) => d.isDirectory() && readdirSync(join(SAMPLES, d.name)).includes('expected.json'))
  .map((d) => d.name)
  .sort();

let originals: Map<string, TriageRecord>;
let renamed: Map<string, TriageRecord>;
let healed: Map<string, TriageRecord>;

/** The first line of the release image's pull, its journal prefix and the image pulled. */
const PULL_LINE = /^(.* release-image-download\.sh\[\d+\]: )(?:Trying to pull|Pulling) (\S+?)\.\.\.$/m;

/**
 * The release image's journal with a healed error after the pull's first line: a registry that
 * timed out once, podman's retry, and the pull going on as it did (to success, or to the sample's
 * own failure). Every healthy install that met a slow registry logs this.
 */
export function withHealedPullError(text: string, path: string): string {
  if (!path.endsWith('bootstrap/journals/release-image.log')) return text;
  const m = PULL_LINE.exec(text);
  if (!m) return text;
  const [line, prefix, image] = m;
  const registry = image.split('/')[0];
  const healedLines = [
    `${prefix}Error: initializing source docker://${image}: pinging container registry ${registry}: Get "https://${registry}/v2/": dial tcp 3.216.152.103:443: i/o timeout`,
    `${prefix}Pull failed. Retrying ${image}...`,
    `${prefix}Trying to pull ${image}...`,
  ];
  const at = (m.index ?? 0) + line.length;
  return `${text.slice(0, at)}\n${healedLines.join('\n')}${text.slice(at)}`;
}

beforeAll(async () => {
  const { cases } = await collectCases([SAMPLES]);
  // The samples are analyzed on the worker threads while the copies are made.
  const first = analyzeMany(cases.map((c) => c.path), { jobs: 2, version: 'test' });
  const copies = tempDir('bootlens-renamed-');
  const renamedPaths: string[] = [];
  for (const name of NAMES) {
    const archive = readdirSync(join(SAMPLES, name)).find((f) => f.endsWith('.tar.gz'))!;
    const to = join(copies, `${name}.tar.gz`);
    await renamedCopy(join(SAMPLES, name, archive), to);
    renamedPaths.push(to);
  }
  const healedPaths: string[] = [];
  for (const name of NAMES) {
    const archive = readdirSync(join(SAMPLES, name)).find((f) => f.endsWith('.tar.gz'))!;
    const to = join(copies, `${name}-healed.tar.gz`);
    await editedCopy(join(SAMPLES, name, archive), to, withHealedPullError);
    healedPaths.push(to);
  }
  const records = [...(await first), ...(await analyzeMany([...renamedPaths, ...healedPaths], { jobs: 2, version: 'test' }))];
  const byPath = new Map(records.map((r) => [r.path, r]));
  originals = new Map(cases.map((c) => [c.name, byPath.get(c.path)!]));
  renamed = new Map(NAMES.map((n, i) => [n, byPath.get(renamedPaths[i])!]));
  healed = new Map(NAMES.map((n, i) => [n, byPath.get(healedPaths[i])!]));
}, 180_000);

describe('triage of the samples folder', () => {
  it('finds one case per sample folder, named by the folder, and no README or generator file', async () => {
    const { cases, ignored } = await collectCases([SAMPLES]);
    expect(cases.map((c) => c.name).sort()).toEqual(NAMES);
    expect(cases.every((c) => c.ignored?.includes('README.md') && c.ignored.includes('expected.json'))).toBe(true);
    expect(ignored).toContain('README.md');
    expect(ignored.some((f) => f.startsWith('generator/'))).toBe(true);
    expect(NAMES.length).toBeGreaterThanOrEqual(19);
  });

  it.each(NAMES)('%s: stage and category agree with expected.json', (name) => {
    const expected = JSON.parse(readFileSync(join(SAMPLES, name, 'expected.json'), 'utf8')) as { stage: string | null; category: string | null };
    const r = originals.get(name)!;
    expect(r.status).toBe('analyzed');
    expect({ stage: r.verdict?.stage, category: r.verdict?.category }).toEqual({ stage: expected.stage, category: expected.category });
  });
});

describe('signatures under renames', () => {
  it('the renamer changes what a new cluster changes', () => {
    const line =
      'csr-u3es6 Pending pod=ovnkube-node-vncwq_openshift-ovn-kubernetes on master-0 via 10.8.0.31:43210 sha256:4312631d715c3ec5440ad38e8095d4681af4ac258d471d716806ac99710575f8 back-off 5m0s';
    const out = renameText(line);
    for (const value of ['csr-u3es6', 'vncwq', 'master-0', '10.8.0.31', '43210', '4312631d715c', '5m0s']) expect(out).not.toContain(value);
    expect(out).toContain('Pending pod=ovnkube-node-');
  });

  it.each(NAMES)('%s: a copy with CSR names, pod suffixes, nodes, IPs, digests, ports and durations renamed gets the same signature', (name) => {
    const a = originals.get(name)!;
    const b = renamed.get(name)!;
    expect(b.status).toBe('analyzed');
    expect(b.signature).toEqual(a.signature);
  });

  it('keys a release-image failure on its error line, not on podman noise beside it', () => {
    const r = originals.get('release-pull-secret-rejected')!;
    expect(r.signature?.template).toMatch(/^Error: initializing source .*unauthorized/);
    for (const rec of originals.values()) expect(rec.signature?.template).not.toMatch(/system refresh/);
  });

  it('keeps the different failures of the samples apart', () => {
    const failed = [...originals.values()].filter((r) => r.verdict?.status === 'failed');
    expect(new Set(failed.map((r) => r.signature?.id)).size).toBe(failed.length);
  });
});

describe('signatures with a healed error added', () => {
  it('the copy holds the healed error where the release image is pulled', () => {
    const journal = [
      'Feb 27 14:41:37 ip-10-0-24-117 release-image-download.sh[1632]: Pulling quay.io/openshift-release-dev/ocp-release@sha256:a3865cf1...',
      'Feb 27 14:41:39 ip-10-0-24-117 release-image-download.sh[1632]: Writing manifest to image destination',
    ].join('\n');
    const out = withHealedPullError(journal, 'log-bundle-1/bootstrap/journals/release-image.log').split('\n');
    expect(out).toHaveLength(5);
    expect(out[1]).toBe(
      'Feb 27 14:41:37 ip-10-0-24-117 release-image-download.sh[1632]: Error: initializing source docker://quay.io/openshift-release-dev/ocp-release@sha256:a3865cf1: pinging container registry quay.io: Get "https://quay.io/v2/": dial tcp 3.216.152.103:443: i/o timeout',
    );
    expect(out[4]).toBe(journal.split('\n')[1]);
    expect(withHealedPullError(journal, 'log-bundle-1/bootstrap/journals/crio.log')).toBe(journal);
  });

  it.each(NAMES)('%s: the signature is the same when a release pull timed out once and was retried', (name) => {
    const a = originals.get(name)!;
    const b = healed.get(name)!;
    expect(b.status).toBe('analyzed');
    expect(b.signature).toEqual(a.signature);
  });
});

describe('the triage record schema', () => {
  it('every record written validates, and a wrong-typed one does not', () => {
    const validate = schemaValidator(TRIAGE_RECORD_SCHEMA);
    for (const r of [...originals.values(), ...renamed.values()]) {
      const roundTripped = JSON.parse(JSON.stringify(r)) as unknown;
      expect(validate(roundTripped), `${r.bundle}: ${JSON.stringify(validate.errors)}`).toBe(true);
    }
    const one = JSON.parse(JSON.stringify(originals.get('workers-csr-pending'))) as Record<string, unknown>;
    expect(isTriageRecord({ ...one, problems: '3' })).toBe(false);
    expect(isTriageRecord({ ...one, signature: { ...(one.signature as object), template: 42 } })).toBe(false);
    expect(isTriageRecord({ ...one, extra: 1 })).toBe(false);
    expect(isTriageRecord({ v: 1, bundle: 'x', path: 'x', status: 'unreadable' })).toBe(false); // no error
  });

  it('every record has every field of the schema, null where it has no value', () => {
    const schema = JSON.parse(readFileSync(join(process.cwd(), 'schema', TRIAGE_RECORD_SCHEMA), 'utf8')) as { properties: Record<string, unknown> };
    const fields = Object.keys(schema.properties).sort();
    for (const r of [...originals.values(), ...renamed.values()]) expect(Object.keys(r).sort(), r.bundle).toEqual(fields);
    const healthy = originals.get('healthy-vsphere-416')!;
    // `ignored` is filled in by the command, which knows the case folders; the pool leaves it null.
    expect(healthy).toMatchObject({ error: null, similar: null, evidence: null, ignored: null });
    expect(healthy.verdict?.knownIssue).toBeNull();
  });
});
