import { beforeAll, describe, expect, it } from 'vitest';
import type { AnalysisResult } from '../../src/analysis/analyze.js';
import { renderMarkdown, renderMarkdownReport } from '../../src/report/markdown.js';
import { STAGES } from '../../src/taxonomy.js';
import { fencedBlocks } from './md-check.js';
import { failedResult, healthyResult } from './results.js';

let failed: AnalysisResult;
let healthy: AnalysisResult;
beforeAll(async () => {
  failed = await failedResult();
  healthy = await healthyResult();
});

describe('renderMarkdown', () => {
  it('puts the verdict first, then the stage table, then findings with fenced evidence and fixes', () => {
    const md = renderMarkdown(failed);
    const lines = md.split('\n');
    expect(lines[0]).toBe('# bootlens: log-bundle-failed.tar.gz');
    expect(lines[2]).toMatch(/^> ❌ \*\*FAILED at bootstrap-etcd \(etcd-health, confidence [\d.]+\)\*\*/);
    expect(md.indexOf('## Stage timeline')).toBeLessThan(md.indexOf('## Findings'));
    expect(md).toMatch(/\| 4 \| \*\*bootstrap-etcd\*\* ◀ \| ❌ \*\*failed\*\* \|/);
    expect(md).toContain('**Evidence**');
    expect(md).toContain('**Fix**');
    expect(md).toContain('1. Read the recorded error');
    expect(md).toContain('- <https://github.com/openshift/installer/');
  });

  it('has a table row per stage with exactly seven cells', () => {
    const md = renderMarkdown(failed);
    const table = md.split('## Stage timeline')[1].split('## Findings')[0];
    const rows = table.split('\n').filter((l) => l.startsWith('|'));
    expect(rows).toHaveLength(2 + STAGES.length);
    for (const row of rows) expect(row.replace(/\\\|/g, '').split('|').length - 2, row).toBe(7);
  });

  it('fences every evidence block and shows journal context around the cited line', () => {
    const md = renderMarkdown(failed);
    const blocks = fencedBlocks(md);
    expect(blocks.length).toBeGreaterThanOrEqual(failed.findings.reduce((n, f) => n + f.evidence.length, 0));
    const withContext = blocks.find((b) => b.body.some((l) => l.startsWith('> ') && l.includes('etcdctl failed')) && b.body.length > 1);
    expect(withContext?.body.some((l) => l.startsWith('  '))).toBe(true);
  });

  it('says when nothing failed', () => {
    const md = renderMarkdown(healthy);
    expect(md.split('\n')[2]).toBe('> ✅ **No failure found**');
    expect(md).not.toContain('◀');
  });

  it('is deterministic, and separates several bundles with a rule', () => {
    expect(renderMarkdown(failed)).toBe(renderMarkdown(JSON.parse(JSON.stringify(failed)) as AnalysisResult));
    const two = renderMarkdownReport([failed, healthy]);
    expect(two.match(/^# bootlens: /gm)).toHaveLength(2);
    expect(two).toContain('\n\n---\n\n# bootlens: log-bundle-healthy');
  });
});
