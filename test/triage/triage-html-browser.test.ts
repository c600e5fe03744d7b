// Opens the triage HTML page in headless Chromium (Debian's, never a downloaded one) from file:// with the network blocked.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderTriageHtml } from '../../src/report/triage-html.js';
import { summarize } from '../../src/triage/summary.js';
import { tempDir } from '../support/fixture-bundle.js';
import { HOSTILE_TRIAGE, hostileTriage } from './hostile-triage.js';
import { browserAvailable, CHROMIUM } from '../support/browser.js';

const available = browserAvailable();
const FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

let browser: Browser;
let file: string;

beforeAll(async () => {
  if (!available) return;
  const { records } = await hostileTriage();
  file = join(tempDir('bootlens-triage-browser-'), 'triage.html');
  writeFileSync(file, renderTriageHtml(summarize(records), records, { version: '0.0.0-test' }));
  browser = await chromium.launch({ executablePath: CHROMIUM, args: FLAGS, headless: true });
}, 60_000);

afterAll(async () => {
  await browser?.close();
});

describe.skipIf(!available)('triage HTML in Chromium', () => {
  it('applies its stylesheet under the CSP, shows hostile names as text, and makes no request', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const requests: string[] = [];
    const errors: string[] = [];
    const dialogs: string[] = [];
    await context.route('**/*', (route) => {
      const url = route.request().url();
      if (url.startsWith('file:') || url.startsWith('data:')) return route.continue();
      requests.push(url);
      return route.abort();
    });
    const page = await context.newPage();
    page.on('console', (m) => {
      if (m.type() === 'error' || m.type() === 'warning') errors.push(`console ${m.type()}: ${m.text()}`);
    });
    page.on('pageerror', (e) => errors.push(`page error: ${e.message}`));
    page.on('dialog', (d) => {
      dialogs.push(d.message());
      void d.dismiss();
    });
    await page.addInitScript({
      content: `window.__csp = []; document.addEventListener('securitypolicyviolation', function (e) { window.__csp.push(e.violatedDirective + ' ' + e.blockedURI); });`,
    });
    await page.goto(`file://${file}`, { waitUntil: 'load' });
    await page.waitForTimeout(200);

    // The hashed stylesheet applied (a blocked one would leave the browser defaults).
    const style = (selector: string, property: string): Promise<string> =>
      page.evaluate<string>(`getComputedStyle(document.querySelector(${JSON.stringify(selector)})).${property}`);
    expect(await style('table.signatures', 'borderCollapse')).toBe('collapse');
    expect(await style('dl.totals', 'display')).toBe('flex');

    // Hostile names and evidence are text, not elements.
    expect(await page.locator('img, svg, script').count()).toBe(0);
    expect(await page.locator('#unreadable td').first().textContent()).toBe(HOSTILE_TRIAGE.unreadableName);
    expect(await page.locator('table.signatures tr[data-signature] td.template code').allTextContents()).toContainEqual(
      expect.stringContaining('</td><script>alert(<NUM>)</script>'),
    );
    // Failures only in the signature table (etcd twice as one row, the release image); the
    // inconclusive bundle in its own section.
    const rows = page.locator('table.signatures tbody tr');
    expect(await rows.count()).toBe(2);
    expect(await page.locator('section#inconclusive li').allTextContents()).toEqual(['ci-run-5']);
    for (const r of await rows.all()) expect(await r.locator('td').count()).toBe(10);

    // A signature's details open on click and list its bundles.
    const etcd = page.locator('details.signature').first();
    expect(await etcd.locator('table.bundles').isVisible()).toBe(false);
    await etcd.locator('summary').click();
    expect(await etcd.locator('table.bundles tbody tr').count()).toBe(2);
    expect(await etcd.locator('table.bundles').textContent()).toContain(HOSTILE_TRIAGE.bundleName);

    expect(await page.evaluate<string[]>('window.__csp')).toEqual([]);
    expect(dialogs).toEqual([]);
    expect(errors).toEqual([]);
    expect(requests).toEqual([]);
    await context.close();
  });
});
