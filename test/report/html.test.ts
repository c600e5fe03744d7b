import { createHash } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import type { AnalysisResult } from '../../src/analysis/analyze.js';
import { renderHtml, renderHtmlReport } from '../../src/report/html.js';
import { failedResult, healthyResult } from './results.js';

let failed: AnalysisResult;
let healthy: AnalysisResult;
beforeAll(async () => {
  failed = await failedResult();
  healthy = await healthyResult();
});

const hash = (text: string): string => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

describe('renderHtml', () => {
  it('declares a strict CSP whose hashes match the one inline style and the one inline script', () => {
    const page = renderHtml(failed);
    const csp = /<meta http-equiv="Content-Security-Policy" content="([^"]+)">/.exec(page)?.[1] ?? '';
    expect(csp).toMatch(/^default-src 'none'; /);
    expect(csp).not.toContain('unsafe');
    const styles = [...page.matchAll(/<style>([\s\S]*?)<\/style>/g)].map((m) => m[1]);
    const scripts = [...page.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((m) => m[1]);
    expect(styles).toHaveLength(1);
    expect(scripts).toHaveLength(1);
    expect(csp).toContain(`style-src ${hash(styles[0])}`);
    expect(csp).toContain(`script-src ${hash(scripts[0])}`);
    // The CSP comes before anything it governs.
    expect(page.indexOf('Content-Security-Policy')).toBeLessThan(page.indexOf('<style>'));
  });

  it('loads nothing: no src attributes, no stylesheet links, no inline style or event handler attributes', () => {
    const page = renderHtml(failed);
    expect(page).not.toMatch(/\ssrc=/);
    expect(page).not.toMatch(/<link(?![^>]*rel="icon" href="data:,")/);
    expect(page).not.toMatch(/\sstyle=/);
    expect(page).not.toMatch(/\son[a-z]+=/);
    expect(page).not.toMatch(/@import|url\(/);
  });

  it('shows the verdict, the strip with the failed stage marked, and every finding with evidence, fix and references', () => {
    const page = renderHtml(failed);
    expect(page).toContain('<header class="verdict failed" id="b0-verdict" role="status">');
    expect(page).toMatch(/<h1><span aria-hidden="true">✖<\/span> FAILED at bootstrap-etcd<\/h1>/);
    expect(page).toMatch(/<g class="row failed" data-stage="bootstrap-etcd" data-status="failed"/);
    expect(page.match(/<article class="finding /g)).toHaveLength(failed.findings.length);
    expect(page).toMatch(/<code>log-bundle-20261122111800\/bootstrap\/journals\/bootkube\.log:\d+<\/code>/);
    expect(page).toContain('<ol class="fix">');
    expect(page).toContain('<a href="https://github.com/openshift/installer/');
    const withContext = failed.findings.flatMap((f) => f.evidence).filter((e) => (e.before?.length ?? 0) + (e.after?.length ?? 0) > 0).length;
    expect(withContext).toBeGreaterThan(0);
    expect(page.match(/<details>/g)).toHaveLength(withContext);
  });

  it('hides the filter form until the script runs, and gives the script its data as a JSON island', () => {
    const page = renderHtml(failed);
    expect(page).toContain('<form class="filters" hidden');
    const island = /<script type="application\/json" id="b0-data" class="bl-data">([^<]*)<\/script>/.exec(page)?.[1];
    const data = JSON.parse(island ?? 'null') as { severities: { id: string; count: number }[]; stages: { id: string }[] };
    expect(data.severities.reduce((n, s) => n + s.count, 0)).toBe(failed.findings.length);
    expect(data.stages.map((s) => s.id)).toContain('bootstrap-etcd');
  });

  it('is deterministic, and puts several bundles in one page', () => {
    expect(renderHtml(failed)).toBe(renderHtml(JSON.parse(JSON.stringify(failed)) as AnalysisResult));
    const page = renderHtmlReport([failed, healthy]);
    expect(page.match(/<section class="bundle"/g)).toHaveLength(2);
    expect(page).toContain('id="b1-verdict"');
    expect(page).toContain('<header class="verdict healthy"');
    expect(page.match(/<!DOCTYPE html>/g)).toHaveLength(1);
  });
});
