// `triage --format junit`: one test case per case, checked against the JUnit XML schema Jenkins
// validates reports with (test/fixtures/junit/junit-10.xsd) by libxml2's own validator.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { validateXML } from 'xmllint-wasm';
import { runTriage } from '../../src/cli/triage-command.js';
import { renderTriageJunit } from '../../src/report/triage-junit.js';
import { findAll, parseXml } from '../report/xml-check.js';
import { tempDir } from '../support/fixture-bundle.js';
import { HOSTILE_TRIAGE, hostileTriage, type TriageFixture } from './hostile-triage.js';

const XSD = readFileSync(join(process.cwd(), 'test/fixtures/junit/junit-10.xsd'), 'utf8');

async function schemaErrors(xml: string): Promise<string[]> {
  const r = await validateXML({ xml: [{ fileName: 'triage.xml', contents: xml }], schema: [{ fileName: 'junit-10.xsd', contents: XSD }] });
  return r.valid ? [] : r.errors.map((e) => e.rawMessage);
}

let fixture: TriageFixture;
let xml: string;

beforeAll(async () => {
  fixture = await hostileTriage();
  const out = join(tempDir(), 'triage.xml');
  const code = await runTriage([fixture.dir], { format: 'junit', output: out, jobs: '2', similarity: 'off' });
  expect(code).toBe(1);
  xml = readFileSync(out, 'utf8');
}, 60_000);

describe('triage JUnit', () => {
  it('is accepted by the JUnit XML schema, and the schema is no rubber stamp', async () => {
    expect(await schemaErrors(xml)).toEqual([]);
    // The same document with an attribute the schema does not allow on <testsuites>, and with a
    // test case missing its name: both refused.
    expect((await schemaErrors(xml.replace('<testsuites ', '<testsuites skipped="1" '))).join('\n')).toMatch(/skipped/);
    expect((await schemaErrors(xml.replace(/<testcase classname="bootlens.triage" name="[^"]*"/, '<testcase classname="bootlens.triage"'))).join('\n')).toMatch(/name/);
  });

  it('has a test case per case: a failure per failed case, an error per unreadable one, a skip per inconclusive one', () => {
    const root = parseXml(xml);
    const cases = findAll(root, 'testcase');
    expect(cases.map((c) => c.attrs.name).sort()).toEqual(fixture.records.map((r) => r.bundle).sort());
    const kind = (name: string): string[] => cases.find((c) => c.attrs.name === name)!.children.map((x) => x.name).filter((n) => n !== 'system-out');
    expect(kind('ci-run-1.tar.gz')).toEqual(['failure']);
    expect(kind('ci-run-3')).toEqual(['failure']);
    expect(kind(HOSTILE_TRIAGE.unreadableName)).toEqual(['error']);
    expect(kind('ci-run-5')).toEqual(['skipped']);
    const suite = findAll(root, 'testsuite')[0];
    expect(suite.attrs).toMatchObject({ tests: '5', failures: '3', errors: '1', skipped: '1' });
  });

  it('says the verdict in the failure message and gives the root cause’s evidence in its body', () => {
    const root = parseXml(xml);
    const release = findAll(root, 'testcase').find((c) => c.attrs.name === 'ci-run-3')!;
    const failure = findAll(release, 'failure')[0];
    expect(failure.attrs.message).toMatch(/^FAILED at release-image \(registry-auth, confidence 0\.\d+, rule release-image-service-failed\)$/);
    expect(failure.attrs.type).toBe('registry-auth');
    expect(failure.text.split('\n')[0]).toBe(failure.attrs.message);
    expect(failure.text).toMatch(/\nsignature [0-9a-f]{12}: Error: reading manifest /);
    expect(failure.text).toContain('bootstrap/services/release-image.json');
    expect(failure.text).toContain('unauthorized: authentication required');
    // Log text stays text, and the token never reaches the report.
    expect(failure.text).toContain(HOSTILE_TRIAGE.evidence);
    expect(xml).not.toContain(HOSTILE_TRIAGE.token);
  });

  it('is the same from the records alone (what --merge reads)', () => {
    const sorted = [...fixture.records].sort((a, b) => a.path.localeCompare(b.path));
    expect(renderTriageJunit(sorted).replace(/name="[^"]*" time/g, '')).toBe(xml.replace(/name="[^"]*" time/g, ''));
  });
});
