// Similar known issues in every human report format, from real results with a real `similar` list (real miner, real knowledge base, real lexical matcher).
import { beforeAll, describe, expect, it } from 'vitest';
import type { AnalysisResult } from '../../src/analysis/analyze.js';
import { renderAnalyzeText } from '../../src/report/analyze-text.js';
import { renderHtml } from '../../src/report/html.js';
import { renderJunit } from '../../src/report/junit.js';
import { renderMarkdown } from '../../src/report/markdown.js';
import { fencedBlocks } from './md-check.js';
import { failedResult, healthyResult } from './results.js';
import { ETCD_LOG, HOSTILE_MATCH, knownIssueResult, RELEASE_LOG, withNoSimilar, withSimilar } from './similar-results.js';
import { findAll, parseXml } from './xml-check.js';

let failed: AnalysisResult;
let similar: AnalysisResult;
let none: AnalysisResult;
let known: AnalysisResult;
let healthySimilar: AnalysisResult;
beforeAll(async () => {
  failed = await failedResult();
  similar = await withSimilar(failed);
  none = withNoSimilar(failed);
  known = await knownIssueResult();
  healthySimilar = await withSimilar(await healthyResult());
}, 30_000);

const PULL = 'release-pull-unauthorized';
const ETCD = 'bootstrap-etcd-slow-disk';

describe('the real similar list the tests use', () => {
  it('has the two known issues its lines resemble, the hostile line among the matched ones', () => {
    expect(similar.similarity).toMatchObject({ mode: 'lexical' });
    expect(similar.similarity.candidates).toBeGreaterThan(0);
    expect(similar.similar.map((s) => s.id)).toEqual([ETCD, PULL]);
    const pull = similar.similar[1];
    expect(pull).toMatchObject({ stage: 'release-image', category: 'registry-auth', rule: 'release-pull-unauthorized' });
    expect(pull.matchedLines[0].file).toBe(RELEASE_LOG);
    expect(pull.matchedLines[0].text).toContain(HOSTILE_MATCH);
    expect(similar.similar[0].matchedLines[0].file).toBe(ETCD_LOG);
    // The rules decided this verdict; similarity did not.
    expect(similar.verdict.knownIssue).toBeUndefined();
    expect(known.verdict).toMatchObject({ status: 'failed', stage: 'bootstrap-etcd', category: 'etcd-health', rootCause: null, knownIssue: ETCD });
  });
});

describe('similar known issues in the text report', () => {
  it('lists each issue after the findings: id, score, title, stage/category, matched line and first fix step', () => {
    const text = renderAnalyzeText(similar, { color: false, width: 140 });
    const at = text.indexOf('Similar known issues (2)');
    expect(at).toBeGreaterThan(text.indexOf('Findings ('));
    expect(at).toBeLessThan(text.indexOf('\nRules\n'));
    const section = text.slice(at, text.indexOf('\nRules\n'));
    expect(section).toContain(`${PULL}  0.55  The registry refuses the pull secret for the release image`);
    expect(section).toContain(`${ETCD}  0.94  The bootstrap etcd member writes too slowly`);
    expect(section).toContain('stage release-image · registry-auth · also covered by rule release-pull-unauthorized');
    expect(section).toContain(`${RELEASE_LOG}:2 (0.59)`);
    // Broken between words only.
    expect(section).toContain('    > Nov 22 10:10:51 bootstrap.ocp4.example.com release-image-download.sh[2210]: Error:\n      initializing source');
    expect(section).toContain("first step: Read the exact refusal: `journalctl -b -u release-image -u release-image-pivot -u");
    expect(section).toContain(`${ETCD_LOG}:1 (1.00)`);
    // Log lines are cut into rows of a sane width.
    const rows = section.split('\n').filter((l) => l.startsWith('    > ') || l.startsWith('      '));
    expect(rows.length).toBeGreaterThan(2);
    for (const row of rows) expect(row.length, row).toBeLessThanOrEqual(102);
    expect(text).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f]/);
  });

  it('says the category came from similarity when no rule decided it', () => {
    const text = renderAnalyzeText(known, { color: false, width: 140 });
    expect(text.split('\n')[1]).toBe(`✖ FAILED at bootstrap-etcd (etcd-health, confidence ${known.verdict.confidence}, from similarity to known issue ${ETCD})`);
    expect(text).toContain(`★ ${ETCD}  0.94`);
    expect(text).toContain("the verdict's category comes from it");
    expect(renderAnalyzeText(similar, { color: false }).split('\n')[1]).not.toContain('from similarity');
  });

  it('is one quiet line when similarity found nothing, and nothing when it was off', () => {
    const quiet = renderAnalyzeText(none, { color: false });
    expect(quiet).toContain('Similar known issues: none (lexical, 3 candidate templates)');
    expect(quiet).not.toContain('Similar known issues (');
    expect(renderAnalyzeText(failed, { color: false })).not.toContain('Similar known issues');
  });
});

describe('similar known issues in Markdown', () => {
  it('has a section with a heading per issue, score, stage/category, fenced matched lines, fix steps and references', () => {
    const md = renderMarkdown(similar);
    const at = md.indexOf('## Similar known issues (2)');
    expect(at).toBeGreaterThan(md.indexOf('## Findings'));
    expect(at).toBeLessThan(md.indexOf('## Rules'));
    const section = md.slice(at, md.indexOf('## Rules'));
    expect(section).toContain(`### 1. \`${ETCD}\`: The bootstrap etcd member writes too slowly`);
    expect(section).toContain(`### 2. \`${PULL}\`: The registry refuses the pull secret for the release image`);
    expect(section).toContain('**Similarity** 0.55 · **stage** `release-image` · **category** `registry-auth` · also covered by rule `release-pull-unauthorized`');
    expect(section).toContain("1. Read the exact refusal: `journalctl -b -u release-image -u release-image-pivot -u node-image-pull --no-pager");
    expect(section).toContain("2. List the registries the secret covers: `jq -r '.auths | keys[]' pull-secret.json`");
    expect(section).toContain('- <https://github.com/openshift/installer/issues/4684>');
    const blocks = fencedBlocks(section);
    expect(blocks).toHaveLength(2);
    expect(blocks[0].body).toEqual([`${ETCD_LOG}:1 (similarity 1.00)`, `> ${similar.similar[0].matchedLines[0].text}`]);
    expect(blocks[1].body[0]).toBe(`${RELEASE_LOG}:2 (similarity 0.59)`);
  });

  it('keeps hostile log text inside its fence: no raw HTML, link or fence outside it', () => {
    const md = renderMarkdown(similar);
    const blocks = fencedBlocks(md);
    const hostile = blocks.find((b) => b.body.some((l) => l.includes('</pre><script>alert(1)</script>')));
    expect(hostile).toBeDefined();
    // The fence is longer than any backtick run in the log line, so the line cannot close it.
    expect(hostile?.fence.length).toBeGreaterThan(4);
    expect(hostile?.body.join('\n')).toContain('```` fence ``` [x](javascript:alert(1)) ]]> &amp; red');
    // Escape sequences are gone, not just their ESC byte.
    expect(md).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f]/);
    let outside = md;
    for (const b of blocks) outside = outside.replace(`${b.fence}text\n${b.body.join('\n')}\n${b.fence}`, '');
    expect(outside).not.toContain('<script>');
    expect(outside).not.toContain('javascript:');
    expect(outside).not.toContain('```` fence');
  });

  it('says the category came from similarity when no rule decided it', () => {
    const md = renderMarkdown(known);
    expect(md.split('\n')[2]).toContain(`from similarity to known issue ${ETCD}`);
    expect(md).toContain(`### 1. ★ \`${ETCD}\``);
    expect(md).toContain("**the verdict's category comes from it**");
    expect(renderMarkdown(similar).split('\n')[2]).not.toContain('from similarity');
  });

  it('has no section when similarity found nothing or was off', () => {
    expect(renderMarkdown(none)).not.toContain('Similar known issues');
    expect(renderMarkdown(failed)).not.toContain('Similar known issues');
    expect(renderMarkdown(none)).toBe(renderMarkdown(failed));
  });
});

describe('similar known issues in HTML', () => {
  it('has a section per bundle with a card per issue: score, title, id, stage/category, matched lines, fix and references', () => {
    const page = renderHtml(similar);
    const section = /<section class="similar" id="b0-similar">([\s\S]*?)<\/section>/.exec(page)?.[1] ?? '';
    expect(section).toContain('<h2>Similar known issues (2)</h2>');
    expect(section.match(/<article class="known-issue"/g)).toHaveLength(2);
    expect(section).toContain(`<article class="known-issue" id="b0-k2" data-known-issue="${PULL}" data-stage="release-image">`);
    expect(section).toContain('<span class="badge score">similarity 0.55</span>');
    expect(section).toContain('<h4>The registry refuses the pull secret for the release image</h4>');
    expect(section).toContain('stage <code>release-image</code> · category <code>registry-auth</code> · also covered by rule <code>release-pull-unauthorized</code>');
    expect(section).toContain(`<code>${RELEASE_LOG}:2</code> · similarity 0.59`);
    expect(section).toContain('<li>List the registries the secret covers: <code>jq -r &#39;.auths | keys[]&#39; pull-secret.json</code>');
    expect(section).toContain('<a href="https://github.com/openshift/installer/issues/4684" rel="noopener noreferrer">');
    expect(page).toContain('<a href="#b0-similar">Similar known issues (2)</a>');
    // After the findings, before the rules.
    expect(page.indexOf('id="b0-similar"')).toBeGreaterThan(page.indexOf('id="b0-findings"'));
    expect(page.indexOf('id="b0-similar"')).toBeLessThan(page.indexOf('id="b0-rules"'));
  });

  it('shows hostile log text escaped inside its <pre>', () => {
    const page = renderHtml(similar);
    const pre = [...page.matchAll(/<pre class="line">([^<]*)<\/pre>/g)].map((m) => m[1]).find((t) => t.includes('alert'));
    expect(pre).toContain('&lt;/pre&gt;&lt;script&gt;alert(1)&lt;/script&gt; &#96;&#96;&#96;&#96; fence &#96;&#96;&#96; [x](javascript:alert(1)) ]]&gt; &amp;amp; red');
    expect(page.match(/<script/g)).toHaveLength(2);
    expect(page).not.toContain('<script>alert');
    expect(page).not.toMatch(/href="javascript:/);
    expect(page).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f]/);
  });

  it('says the category came from similarity when no rule decided it', () => {
    const page = renderHtml(known);
    expect(page).toContain(`category etcd-health (from similarity to known issue ${ETCD}; no rule decided it)`);
    expect(page).toContain(`<title>bootlens: log-bundle-similar.tar.gz: FAILED at bootstrap-etcd (etcd-health, confidence ${known.verdict.confidence}, from similarity to known issue ${ETCD})</title>`);
    expect(page).toContain('<span class="badge root">★ verdict category</span>');
  });

  it('has no section when similarity found nothing or was off', () => {
    for (const r of [none, failed]) {
      const page = renderHtml(r);
      expect(page).not.toContain('Similar known issues');
      expect(page).not.toContain('<article class="known-issue"');
      expect(page).not.toContain('id="b0-similar"');
    }
  });
});

describe('similar known issues in JUnit', () => {
  it("puts them into the failed stage's failure text, the hostile line intact and the XML well-formed", () => {
    const root = parseXml(renderJunit(similar));
    const failures = findAll(root, 'failure');
    expect(failures).toHaveLength(1);
    const text = failures[0].text;
    expect(text).toContain('similar known issues (2): Lexical matching of');
    expect(text).toContain(`  1. ${ETCD} (similarity 0.94): The bootstrap etcd member writes too slowly`);
    expect(text).toContain(`  2. ${PULL} (similarity 0.55): The registry refuses the pull secret`);
    expect(text).toContain('     stage release-image, category registry-auth, also covered by rule release-pull-unauthorized');
    expect(text).toContain(`     matched ${RELEASE_LOG}:2 (similarity 0.59)`);
    // The CDATA section was split around the log's `]]>`; the parser joins it back.
    expect(text).toContain('</pre><script>alert(1)</script> ```` fence ``` [x](javascript:alert(1)) ]]> &amp; red');
    expect(text).toContain('       1. Read the exact refusal:');
    // Nothing from the log became an element.
    const names = new Set(findAll(root, 'testsuites').flatMap(function all(e): string[] {
      return [e.name, ...e.children.flatMap(all)];
    }));
    expect([...names].sort()).toEqual(['failure', 'properties', 'property', 'skipped', 'system-out', 'testcase', 'testsuite', 'testsuites']);
  });

  it('names the known issue the verdict came from, in the message and as a property', () => {
    const root = parseXml(renderJunit(known));
    const failure = findAll(root, 'failure')[0];
    expect(failure.attrs.message).toMatch(new RegExp(`^FAILED at bootstrap-etcd \\(etcd-health, confidence [\\d.]+, from similarity to known issue ${ETCD}\\)`));
    expect(failure.text).toContain("the verdict's category comes from it");
    const props = Object.fromEntries(findAll(root, 'property').map((p) => [p.attrs.name, p.attrs.value]));
    expect(props['verdict.knownIssue']).toBe(ETCD);
    expect(findAll(parseXml(renderJunit(similar)), 'property').map((p) => p.attrs.name)).not.toContain('verdict.knownIssue');
  });

  it("puts them into the suite's system-out when no stage failed", () => {
    expect(healthySimilar.verdict.status).toBe('healthy');
    const root = parseXml(renderJunit(healthySimilar));
    expect(findAll(root, 'failure')).toHaveLength(0);
    const suite = findAll(root, 'testsuite')[0];
    const out = suite.children.filter((c) => c.name === 'system-out');
    expect(out).toHaveLength(1);
    expect(out[0].text).toContain(`  2. ${PULL} (similarity 0.55)`);
    expect(out[0].text).toContain('</pre><script>alert(1)</script>');
  });

  it('adds nothing when similarity found nothing or was off', () => {
    expect(renderJunit(none)).toBe(renderJunit(failed));
    expect(renderJunit(none)).not.toContain('similar known issues');
  });
});
