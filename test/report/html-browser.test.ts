// Opens HTML reports in headless Chromium (Debian's, never a downloaded one) from file:// with the network blocked.
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyzeBundle } from '../../src/analysis/analyze.js';
import { redactDeep } from '../../src/redact/redact.js';
import { renderHtml } from '../../src/report/html.js';
import { loadRules } from '../../src/rules/load-rules.js';
import { tempDir } from '../support/fixture-bundle.js';
import { HOSTILE, writeHostileBundle } from './hostile-bundle.js';
import { failedResult } from './results.js';
import { loadKnowledgeBase } from '../../src/similarity/knowledge-base.js';
import { HOSTILE_MATCH, withSimilar } from './similar-results.js';
import { browserAvailable, CHROMIUM } from '../support/browser.js';

const available = browserAvailable();
const FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];
/** Kept after the run (outside the test's temp folders) so a person can look at it. */
export const SCREENSHOT = join(tmpdir(), 'bootlens-html-report.png');

/** What a page did that it must not: console errors, uncaught errors, CSP violations, requests, dialogs. */
interface Watch {
  errors: string[];
  requests: string[];
  dialogs: string[];
}

let browser: Browser;
let failedPage: string;
let hostilePage: string;
let similarPage: string;

beforeAll(async () => {
  if (!available) return;
  const dir = tempDir('bootlens-browser-');
  failedPage = join(dir, 'failed.html');
  writeFileSync(failedPage, renderHtml(await failedResult()));
  similarPage = join(dir, 'similar.html');
  writeFileSync(similarPage, renderHtml(await withSimilar(await failedResult())));
  const hostile = await writeHostileBundle();
  const { rules } = loadRules(hostile.rules);
  hostilePage = join(dir, 'hostile.html');
  writeFileSync(hostilePage, renderHtml(redactDeep(await analyzeBundle(hostile.bundle, { rules, version: '0.0.0-test' }))));
  browser = await chromium.launch({ executablePath: CHROMIUM, args: FLAGS, headless: true });
}, 60_000);

afterAll(async () => {
  await browser?.close();
});

async function open(file: string, opts: { javaScriptEnabled?: boolean } = {}): Promise<{ page: Page; context: BrowserContext; watch: Watch }> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, javaScriptEnabled: opts.javaScriptEnabled ?? true });
  const watch: Watch = { errors: [], requests: [], dialogs: [] };
  // Anything but the file itself (and data: URLs) is a request the page must never make.
  await context.route('**/*', (route) => {
    const url = route.request().url();
    if (url.startsWith('file:') || url.startsWith('data:')) return route.continue();
    watch.requests.push(url);
    return route.abort();
  });
  const page = await context.newPage();
  page.on('request', (r) => {
    const url = r.url();
    if (!url.startsWith('file:') && !url.startsWith('data:') && !watch.requests.includes(url)) watch.requests.push(url);
  });
  page.on('console', (m) => {
    if (m.type() === 'error' || m.type() === 'warning') watch.errors.push(`console ${m.type()}: ${m.text()}`);
  });
  page.on('pageerror', (e) => watch.errors.push(`page error: ${e.message}`));
  page.on('dialog', (d) => {
    watch.dialogs.push(d.message());
    void d.dismiss();
  });
  // Recorded by the page itself, in case a violation is not logged to the console.
  await page.addInitScript({
    content: `window.__csp = []; document.addEventListener('securitypolicyviolation', function (e) { window.__csp.push(e.violatedDirective + ' ' + e.blockedURI); });`,
  });
  await page.goto(`file://${file}`, { waitUntil: 'load' });
  return { page, context, watch };
}

async function cspViolations(page: Page): Promise<string[]> {
  return page.evaluate<string[]>('window.__csp');
}

describe.skipIf(!available)('HTML report in Chromium', () => {
  it('shows the verdict and the failed stage, filters findings, prints, and stays clean', async () => {
    const { page, context, watch } = await open(failedPage);

    const banner = page.locator('#b0-verdict');
    await expect(banner.locator('h1').textContent()).resolves.toContain('FAILED at bootstrap-etcd');
    expect(await banner.isVisible()).toBe(true);

    // The strip marks the failed stage; the table row too.
    const failedRow = page.locator('svg.gantt g.row.failed');
    expect(await failedRow.count()).toBe(1);
    expect(await failedRow.getAttribute('data-stage')).toBe('bootstrap-etcd');
    expect(await failedRow.locator('text.label').textContent()).toBe('✖ bootstrap-etcd');
    expect(await failedRow.locator('text.note').textContent()).toMatch(/^✖ failed after /);
    expect(await failedRow.locator('rect.bar.s-failed').isVisible()).toBe(true);
    expect(await page.locator('table.stages tr.failed').getAttribute('data-stage')).toBe('bootstrap-etcd');

    // The script built the filters from the data island.
    const findings = page.locator('article.finding');
    const total = await findings.count();
    expect(total).toBeGreaterThanOrEqual(3);
    const form = page.locator('form.filters');
    expect(await form.isVisible()).toBe(true);
    expect(await page.locator('.filter-status').textContent()).toBe(`Showing ${total} of ${total} findings.`);

    // Severity: hiding errors leaves only the warning(s).
    const errors = await page.locator('article.finding[data-severity="error"]').count();
    expect(errors).toBeGreaterThan(0);
    await form.locator('input[name="severity"][value="error"]').uncheck();
    for (const f of await page.locator('article.finding[data-severity="error"]').all()) expect(await f.isHidden()).toBe(true);
    for (const f of await page.locator('article.finding:not([data-severity="error"])').all()) expect(await f.isVisible()).toBe(true);
    expect(await page.locator('.filter-status').textContent()).toBe(`Showing ${total - errors} of ${total} findings.`);
    // A stage group left without visible findings disappears with them; one with a warning stays.
    const groups = await page.locator('section.stage-group').all();
    let hidden = 0;
    for (const g of groups) {
      const left = await g.locator('article.finding:not([data-severity="error"])').count();
      expect(await g.isHidden()).toBe(left === 0);
      if (left === 0) hidden++;
    }
    expect(hidden).toBeGreaterThan(0);

    // Stage: only bootstrap-etcd's findings; host: the master-less filter keeps bootstrap's.
    await form.locator('button[type="reset"]').click();
    await expect.poll(() => page.locator('article.finding:visible').count()).toBe(total);
    await form.locator('select[name="stage"]').selectOption('bootstrap-etcd');
    const etcd = await page.locator('article.finding[data-stage="bootstrap-etcd"]').count();
    expect(await page.locator('article.finding:visible').count()).toBe(etcd);
    await form.locator('select[name="stage"]').selectOption('');
    await form.locator('select[name="host"]').selectOption('bootstrap');
    for (const f of await page.locator('article.finding:visible').all()) expect(await f.getAttribute('data-hosts')).toContain('"bootstrap"');

    // The journal context opens on click.
    await form.locator('button[type="reset"]').click();
    const details = page.locator('article.finding details').first();
    expect(await details.locator('pre.context').isVisible()).toBe(false);
    await details.locator('summary').click();
    expect(await details.locator('pre.context').isVisible()).toBe(true);
    expect(await details.locator('pre.context mark').textContent()).toContain('etcdctl failed');

    await page.screenshot({ path: SCREENSHOT, fullPage: true });
    const png = readFileSync(SCREENSHOT);
    expect(png.subarray(1, 4).toString()).toBe('PNG');
    expect(statSync(SCREENSHOT).size).toBeGreaterThan(20_000);

    // Print: no controls, every context shown.
    await details.locator('summary').click();
    await page.emulateMedia({ media: 'print' });
    expect(await form.isVisible()).toBe(false);
    expect(await page.locator('pre.context').first().isVisible()).toBe(true);
    await page.emulateMedia({ media: 'screen' });

    expect(await cspViolations(page)).toEqual([]);
    expect(watch.errors).toEqual([]);
    expect(watch.requests).toEqual([]);
    await context.close();
  });

  it('is readable without JavaScript: every finding shown, no filter controls', async () => {
    const { page, context, watch } = await open(failedPage, { javaScriptEnabled: false });
    expect(await page.locator('#b0-verdict h1').textContent()).toContain('FAILED at bootstrap-etcd');
    const findings = page.locator('article.finding');
    expect(await findings.count()).toBeGreaterThan(0);
    for (const f of await findings.all()) expect(await f.isVisible()).toBe(true);
    expect(await page.locator('form.filters').isVisible()).toBe(false);
    expect(watch.errors).toEqual([]);
    expect(watch.requests).toEqual([]);
    await context.close();
  });

  it('shows similar known issues with their matched lines as text, untouched by the filters, under the CSP', async () => {
    const { page, context, watch } = await open(similarPage);
    await page.waitForTimeout(200);
    const section = page.locator('section#b0-similar');
    expect(await section.isVisible()).toBe(true);
    expect(await section.locator('h2').textContent()).toBe('Similar known issues (2)');
    const cards = section.locator('article.known-issue');
    expect(await cards.count()).toBe(2);
    const release = loadKnowledgeBase().find((k) => k.id === 'release-pull-unauthorized');
    expect(release).toBeDefined();
    expect(await cards.nth(1).locator('h4').textContent()).toBe(release?.title);
    expect(await cards.nth(1).locator('.badge.score').textContent()).toBe('similarity 0.55');
    // The hostile log line is one text node in its <pre>: nothing in it became an element.
    const pre = cards.nth(1).locator('pre.line');
    expect(await pre.count()).toBe(1);
    expect(await pre.locator('*').count()).toBe(0);
    expect(await pre.textContent()).toContain(HOSTILE_MATCH.replace(/\u001b\[\d+m/g, ''));
    expect(await page.locator('script').count()).toBe(2);
    // The filters act on findings only.
    await page.locator('form.filters input[name="severity"][value="error"]').uncheck();
    for (const card of await cards.all()) expect(await card.isVisible()).toBe(true);
    await page.locator('nav.toc a[href="#b0-similar"]').click();
    await page.emulateMedia({ media: 'print' });
    expect(await cards.first().isVisible()).toBe(true);
    await page.emulateMedia({ media: 'screen' });
    expect(watch.dialogs).toEqual([]);
    expect(await cspViolations(page)).toEqual([]);
    expect(watch.errors).toEqual([]);
    expect(watch.requests).toEqual([]);
    await context.close();
  });

  it('shows hostile log text as text: no element, script, dialog or request comes out of it', async () => {
    const { page, context, watch } = await open(hostilePage);
    await page.waitForTimeout(200);
    expect(await page.locator('img').count()).toBe(0);
    expect(await page.locator('script').count()).toBe(2);
    const lines = (await page.locator('pre.line').allTextContents()).join('\n');
    expect(lines).toContain(HOSTILE.script);
    expect(lines).toContain(HOSTILE.details);
    expect(lines).toContain(HOSTILE.cdataEnd);
    // Each evidence still has its own closed context, whatever the text said.
    const cards = page.locator('article.finding[data-rule="hostile-line"]');
    expect(await cards.count()).toBe(1);
    expect(await cards.locator('details').count()).toBe(await cards.locator('ol.evidence > li').count());
    // The filters still work on this page.
    await page.locator('form.filters input[name="severity"][value="critical"]').uncheck();
    expect(await cards.isHidden()).toBe(true);
    expect(watch.dialogs).toEqual([]);
    expect(await cspViolations(page)).toEqual([]);
    expect(watch.errors).toEqual([]);
    expect(watch.requests).toEqual([]);
    await context.close();
  });
});
