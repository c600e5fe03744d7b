import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { REDACTED } from '../../src/redact/redact.js';
import { escapeHtml } from '../../src/report/escape.js';
import { renderTriageHtml, TRIAGE_CSS } from '../../src/report/triage-html.js';
import { summarize, type TriageSummary } from '../../src/triage/summary.js';
import { packageRoot } from '../../src/util/package-root.js';
import { tempDir } from '../support/fixture-bundle.js';
import { HOSTILE_TRIAGE, hostileTriage, type TriageFixture } from './hostile-triage.js';

const CLI = join(packageRoot(), 'dist', 'src', 'cli', 'main.js');

let fixture: TriageFixture;
let summary: TriageSummary;
let page: string;

beforeAll(async () => {
  fixture = await hostileTriage();
  summary = summarize(fixture.records);
  page = renderTriageHtml(summary, fixture.records, { version: '0.0.0-test' });
}, 60_000);

/** The text of every cell of a table row (tags dropped, entities left as written). */
function cells(row: string): string[] {
  return [...row.matchAll(/<td[^>]*>([\s\S]*?)<\/td>/g)].map((m) => m[1].replace(/<[^>]+>/g, '').trim());
}

function section(id: string): string {
  const m = new RegExp(`<section id="${id}">([\\s\\S]*?)</section>`).exec(page);
  expect(m, `section #${id}`).not.toBeNull();
  return m![1];
}

describe('triage HTML', () => {
  it('is one document that names its only stylesheet by hash and loads nothing', () => {
    expect(page.startsWith('<!DOCTYPE html>')).toBe(true);
    const styles = [...page.matchAll(/<style>([\s\S]*?)<\/style>/g)];
    expect(styles).toHaveLength(1);
    expect(styles[0][1]).toBe(TRIAGE_CSS);
    const hash = createHash('sha256').update(styles[0][1], 'utf8').digest('base64');
    const csp = /<meta http-equiv="Content-Security-Policy" content="([^"]+)">/.exec(page)?.[1];
    expect(csp).toBeDefined();
    const directives = new Map(csp!.split(';').map((d) => d.trim().split(/\s+/)).map(([k, ...v]) => [k, v]));
    expect(directives.get('default-src')).toEqual(["'none'"]);
    expect(directives.get('style-src')).toEqual([`'sha256-${hash}'`]);
    expect(directives.get('script-src')).toEqual(["'none'"]);
    // Nothing the policy would block or that would reach out: no script, no style attribute, no external URL.
    const tags = page.match(/<[a-zA-Z][^>]*>/g) ?? [];
    expect(tags.filter((t) => /^<script|\sstyle=|\son\w+=|\s(src|href)="(?!#|data:)/i.test(t))).toEqual([]);
  });

  it('shows the totals and the unclassified share', () => {
    expect(summary).toMatchObject({ total: 5, analyzed: 4, failed: 3, inconclusive: 1, healthy: 0, unclassified: 1, unclassifiedShare: 0.25 });
    const totals = /<dl class="totals">([\s\S]*?)<\/dl>/.exec(page)![1];
    const pairs = Object.fromEntries([...totals.matchAll(/<dt>([^<]*)<\/dt><dd>([^<]*)<\/dd>/g)].map((m) => [m[1], m[2]]));
    expect(pairs).toEqual({ Bundles: '5', Analyzed: '4', Failed: '3', Inconclusive: '1', Healthy: '0', 'Failed to read': '1', Signatures: '2', Unclassified: '1 (25.0%)' });
  });

  it('has one row per signature with its count, share, times, template and examples', () => {
    const table = section('signatures');
    const rows = [...table.matchAll(/<tr class="([^"]*)" data-signature="([0-9a-f]{12})">([\s\S]*?)<\/tr>/g)];
    expect(rows.map((r) => r[2])).toEqual(summary.groups.map((g) => g.signature.id));
    const byStage = (stage: string): string[] => cells(rows.find((r) => cells(r[3])[1] === stage)![3]);
    const etcd = byStage('bootstrap-etcd');
    expect(etcd.slice(0, 6)).toEqual([summary.groups[0].signature.id, 'bootstrap-etcd', 'etcd-health', 'bootstrap-etcd-unhealthy', '2', '50.0%']);
    expect(etcd[6]).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\dZ$/);
    expect(etcd[8]).toBe('etcdctl failed. Retrying in &lt;NUM&gt; seconds...');
    expect(etcd[9]).toContain(escapeHtml(HOSTILE_TRIAGE.bundleName));
    expect(etcd[9]).toContain('ci-run-1.tar.gz');
    const release = byStage('release-image');
    expect(release.slice(2, 6)).toEqual(['registry-auth', 'release-image-service-failed', '1', '25.0%']);
    // Inconclusive cases are no failure: a section of their own, not a row of the failure table.
    expect(rows).toHaveLength(2);
    expect(table).not.toContain('inconclusive');
    expect(section('inconclusive')).toMatch(/<h2>Inconclusive \(1\)<\/h2>\s*<ul class="cases"><li>[^<]+<\/li><\/ul>/);
  });

  it('lists the bundle that could not be read, with its error', () => {
    const unreadable = section('unreadable');
    const rows = [...unreadable.matchAll(/<tr><td>[\s\S]*?<\/tr>/g)].map((m) => cells(m[0]));
    expect(rows).toHaveLength(1);
    expect(rows[0][0]).toBe(escapeHtml(HOSTILE_TRIAGE.unreadableName));
    expect(rows[0][2]).toContain('is not a log bundle');
  });

  it('has a details block per signature listing every one of its bundles', () => {
    const details = [...section('details').matchAll(/<details class="signature" id="sig-([0-9a-f]{12})"[^>]*>([\s\S]*?)<\/details>/g)];
    expect(details.map((d) => d[1])).toEqual(summary.groups.map((g) => g.signature.id));
    const etcd = details.find((d) => d[1] === summary.groups[0].signature.id)![2];
    const bundles = [...etcd.matchAll(/<tr><td>([^<]*)<\/td>/g)].map((m) => m[1]).sort();
    expect(bundles).toEqual([escapeHtml(HOSTILE_TRIAGE.bundleName), 'ci-run-1.tar.gz'].sort());
    // Every row in the signatures table links to its details.
    for (const g of summary.groups) expect(page).toContain(`href="#sig-${g.signature.id}"`);
  });

  it('escapes hostile bundle names and evidence, and keeps redacted secrets out', () => {
    expect(page).not.toContain(HOSTILE_TRIAGE.bundleName);
    expect(page).not.toContain(HOSTILE_TRIAGE.unreadableName);
    expect(page).not.toContain('</td><script>');
    expect(page).not.toMatch(/<(img|svg|script)\b/i);
    expect(page).toContain(escapeHtml(HOSTILE_TRIAGE.bundleName));
    expect(page).toContain(escapeHtml(HOSTILE_TRIAGE.unreadableName));
    expect(page).toContain('&lt;/td&gt;&lt;script&gt;alert(&lt;NUM&gt;)&lt;/script&gt;');
    expect(page).not.toContain(HOSTILE_TRIAGE.token);
    expect(page).toContain(escapeHtml(`Bearer ${REDACTED}`));
    // The same number of cells in every signature row: nothing ended a cell early.
    const rows = [...section('signatures').matchAll(/<tr class[^>]*>([\s\S]*?)<\/tr>/g)];
    for (const r of rows) expect(r[1].match(/<td\b/g)).toHaveLength(10);
  });

  it('without records, lists each signature\'s examples', () => {
    const bare = renderTriageHtml(summary);
    expect(bare).toContain(`Examples (2 of 2)`);
    expect(bare).not.toContain('<table class="bundles">');
  });

  it('is what `bootlens triage --format html` writes, and --merge gives the same page', () => {
    const out = join(tempDir('bootlens-triage-cli-'), 'triage.html');
    const jsonl = join(out, '..', 'records.jsonl');
    const run = spawnSync(process.execPath, [CLI, 'triage', '--jobs', '2', '--format', 'html', '--jsonl', jsonl, '-o', out, fixture.dir], { encoding: 'utf8' });
    expect(run.status).toBe(1); // failures were found
    const written = readFileSync(out, 'utf8');
    const ids = (html: string): string[] => [...html.matchAll(/<tr class="[^"]*" data-signature="([0-9a-f]{12})">/g)].map((m) => m[1]);
    expect(ids(written)).toEqual(summary.groups.map((g) => g.signature.id));
    expect(written).toContain(escapeHtml(HOSTILE_TRIAGE.unreadableName));
    expect(written).not.toMatch(/<(img|svg|script)\b/i);
    const merged = spawnSync(process.execPath, [CLI, 'triage', '--merge', '--format', 'html', jsonl], { encoding: 'utf8' });
    expect(merged.status).toBe(1);
    expect(merged.stdout).toBe(written);
  });
});
