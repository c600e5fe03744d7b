// The triage summary as one self-contained HTML page: totals, the signatures table, the bundles
// that could not be read, and per-signature details listing their bundles. No script; one
// inline stylesheet named by its sha256 in a strict Content-Security-Policy; every string from
// a bundle or a record goes through the `html` tag, which escapes it.
import type { TriageRecord } from '../triage/record.js';
import type { CaseList, SignatureGroup, TriageSummary } from '../triage/summary.js';
import { html, SafeHtml } from './escape.js';
import { pageHead, pagePolicy } from './html-page.js';
import { formatTime } from './format.js';
import { pct, UNCLASSIFIED_NOTE } from './triage-text.js';
import { byCodeUnits } from '../util/byte-order.js';

/** The page's only stylesheet: screen and print, no fonts or images from anywhere. */
export const TRIAGE_CSS = `
:root {
  --fg: #1d2939; --muted: #667085; --line: #d0d5dd; --bg: #ffffff; --panel: #f9fafb;
  --ok: #12b76a; --failed: #d92d20; --warn: #f79009; --info: #175cd3;
  --mono: ui-monospace, SFMono-Regular, Menlo, Consolas, "Liberation Mono", monospace;
}
* { box-sizing: border-box; }
html { font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; color: var(--fg); background: var(--bg); }
body { margin: 0 auto; max-width: 1400px; padding: 24px; }
code { font-family: var(--mono); font-size: 0.88em; overflow-wrap: anywhere; }
a { color: var(--info); }
h1 { font-size: 1.6rem; margin: 0 0 12px; }
h2 { font-size: 1.25rem; margin: 32px 0 12px; border-bottom: 1px solid var(--line); padding-bottom: 4px; }
dl.totals { display: flex; flex-wrap: wrap; gap: 12px; margin: 0; }
dl.totals div { border: 1px solid var(--line); border-radius: 8px; padding: 8px 14px; background: var(--panel); min-width: 9em; }
dl.totals dt { color: var(--muted); font-size: 0.8rem; text-transform: uppercase; letter-spacing: 0.04em; }
dl.totals dd { margin: 0; font-size: 1.4rem; font-weight: 700; }
dl.totals .failed dd { color: var(--failed); }
dl.totals .unreadable dd, dl.totals .unclassified dd { color: #b54708; }
table { border-collapse: collapse; width: 100%; font-size: 0.88rem; }
th, td { text-align: left; padding: 5px 8px; border-bottom: 1px solid var(--line); vertical-align: top; }
th { background: var(--panel); white-space: nowrap; }
td.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
td.time { white-space: nowrap; color: var(--muted); }
td.template { min-width: 22em; }
td.id code { white-space: nowrap; }
td.rule code { overflow-wrap: normal; }
tr.unclassified td { background: #fffaeb; }
.tag { display: inline-block; padding: 0 7px; border-radius: 9px; font-size: 0.75rem; font-weight: 600; white-space: nowrap; background: #f2f4f7; color: #475467; }
.tag.failed { background: #fee4e2; color: #912018; }
.tag.unclassified, .tag.inconclusive { background: #fef0c7; color: #93370d; }
ul.examples, ul.cases { margin: 0; padding-left: 16px; }
details.signature { border: 1px solid var(--line); border-radius: 8px; padding: 8px 12px; margin: 0 0 10px; }
details.signature > summary { cursor: pointer; }
details.signature > summary .count { font-weight: 700; }
details.signature p { margin: 6px 0; }
.muted { color: var(--muted); }
footer { margin-top: 40px; color: var(--muted); font-size: 0.8rem; }
@media print {
  html { font-size: 10pt; }
  body { max-width: none; padding: 0; }
  table, details.signature { break-inside: avoid; }
  h2 { break-after: avoid; }
  details::details-content { content-visibility: visible; display: block; }
}
`;

/** The triage page's policy: nothing runs; its one stylesheet is named by hash. */
export function triageContentSecurityPolicy(): string {
  return pagePolicy(TRIAGE_CSS);
}

export interface TriageHtmlOptions {
  /** bootlens' version, for the generator line. */
  version?: string;
}

function statusOf(g: SignatureGroup): string {
  return g.unclassified ? 'unclassified' : 'failed';
}

function anchor(g: SignatureGroup): string {
  return `sig-${g.signature.id}`;
}

function totals(s: TriageSummary): SafeHtml {
  const item = (cls: string, label: string, value: string): SafeHtml => html`<div class="${cls}"><dt>${label}</dt><dd>${value}</dd></div>`;
  return html`<dl class="totals">
${item('total', 'Bundles', String(s.total))}
${item('analyzed', 'Analyzed', String(s.analyzed))}
${item('failed', 'Failed', String(s.failed))}
${item('inconclusive', 'Inconclusive', String(s.inconclusive))}
${item('healthy', 'Healthy', String(s.healthy))}
${item('unreadable', 'Failed to read', String(s.unreadable.length))}
${item('signatures', 'Signatures', String(s.groups.length))}
${item('unclassified', 'Unclassified', `${s.unclassified} (${pct(s.unclassifiedShare)})`)}
</dl>
<p class="muted">${UNCLASSIFIED_NOTE}</p>`;
}

function signatureRow(g: SignatureGroup, analyzed: number): SafeHtml {
  const sig = g.signature;
  const cls = g.unclassified ? 'unclassified' : '';
  const share = analyzed > 0 ? g.count / analyzed : 0;
  return html`<tr class="${cls}" data-signature="${sig.id}">
<td class="id"><a href="#${anchor(g)}"><code>${sig.id}</code></a></td>
<td>${sig.stage ?? '—'}</td>
<td>${sig.category ?? '—'}</td>
<td class="rule">${sig.ruleId ? html`<code>${sig.ruleId}</code>` : '—'}${g.unclassified ? html` <span class="tag unclassified">unclassified</span>` : ''}</td>
<td class="num count">${g.count}</td>
<td class="num share">${pct(share)}</td>
<td class="time">${formatTime(g.firstSeen)}</td>
<td class="time">${formatTime(g.lastSeen)}</td>
<td class="template">${sig.template ? html`<code>${sig.template}</code>` : '—'}</td>
<td><ul class="examples">${g.examples.map((e) => html`<li>${e}</li>`)}</ul></td>
</tr>`;
}

function signatureTable(s: TriageSummary): SafeHtml {
  if (s.groups.length === 0) return html`<p class="muted">No case failed.</p>`;
  return html`<table class="signatures">
<thead><tr><th>Signature</th><th>Stage</th><th>Category</th><th>Rule</th><th>Count</th><th>Share</th><th>First seen</th><th>Last seen</th><th>Key evidence template</th><th>Examples</th></tr></thead>
<tbody>
${s.groups.map((g) => signatureRow(g, s.analyzed))}
</tbody>
</table>
<p class="muted">Share: of the analyzed cases. Seen: when each bundle was gathered.</p>`;
}

/** Healthy or inconclusive cases: a section of their own, never rows of the failure table. */
function caseSection(id: string, title: string, list: CaseList): SafeHtml {
  if (list.count === 0) return html``;
  const more = list.count - list.examples.length;
  return html`<section id="${id}"><h2>${title} (${list.count})</h2>
<ul class="cases">${list.examples.map((e) => html`<li>${e}</li>`)}</ul>
${more > 0 ? html`<p class="muted">and ${more} more (every case is in the JSON lines).</p>` : ''}
</section>`;
}

function unreadableSection(s: TriageSummary): SafeHtml {
  if (s.unreadable.length === 0) return html``;
  return html`<section id="unreadable"><h2>Failed to read (${s.unreadable.length})</h2>
<table class="unreadable">
<thead><tr><th>Bundle</th><th>Path</th><th>Error</th></tr></thead>
<tbody>
${s.unreadable.map((u) => html`<tr><td>${u.bundle}</td><td><code>${u.path}</code></td><td>${u.error}</td></tr>`)}
</tbody>
</table>
</section>`;
}

function bundleRows(records: readonly TriageRecord[]): SafeHtml {
  return html`<table class="bundles">
<thead><tr><th>Bundle</th><th>Path</th><th>Gathered</th><th>Confidence</th><th>CI failure mode</th><th>Findings</th></tr></thead>
<tbody>
${records.map(
  (r) => html`<tr><td>${r.bundle}</td><td><code>${r.path}</code></td><td class="time">${formatTime(r.gatheredAt ?? undefined)}</td><td>${r.verdict?.confidence ?? '—'}</td><td>${r.verdict?.ciFailureMode ?? '—'}</td><td>${(r.findings ?? []).length > 0 ? html`${(r.findings ?? []).map((f, i) => html`${i > 0 ? ', ' : ''}<code>${f}</code>`)}` : '—'}</td></tr>`,
)}
</tbody>
</table>`;
}

function signatureDetails(g: SignatureGroup, records: readonly TriageRecord[] | undefined): SafeHtml {
  const sig = g.signature;
  const mine = records?.filter((r) => r.status === 'analyzed' && r.signature?.id === sig.id).sort((a, b) => byCodeUnits(a.path, b.path));
  const title = `${sig.stage ?? '-'} / ${sig.category ?? '-'}`;
  return html`<details class="signature" id="${anchor(g)}" data-signature="${sig.id}">
<summary><code>${sig.id}</code> <span class="tag ${statusOf(g)}">${title}</span> <span class="count">${g.count}</span> ${g.count === 1 ? 'bundle' : 'bundles'}</summary>
${sig.ruleId ? html`<p>Root cause rule <code>${sig.ruleId}</code>${g.ciFailureMode ? html`; CI failure mode ${g.ciFailureMode}` : ''}.</p>` : ''}
${sig.template ? html`<p>Key evidence template: <code>${sig.template}</code></p>` : ''}
<p class="muted">Seen ${formatTime(g.firstSeen)} → ${formatTime(g.lastSeen)}.</p>
${
  mine && mine.length > 0
    ? bundleRows(mine)
    : html`<p>Examples (${g.examples.length} of ${g.count}):</p><ul class="examples">${g.examples.map((e) => html`<li>${e}</li>`)}</ul>`
}
</details>`;
}

/**
 * Renders a triage summary as one self-contained HTML document. With the records the summary
 * was made from, each signature's details list all its bundles; without, its examples.
 */
export function renderTriageHtml(summary: TriageSummary, records?: readonly TriageRecord[], options: TriageHtmlOptions = {}): string {
  const s = summary;
  const doc = html`${pageHead({ title: `bootlens triage: ${s.total} bundles, ${s.groups.length} signatures`, version: options.version ?? '', css: TRIAGE_CSS })}
<header>
<h1>bootlens triage: ${s.total} ${s.total === 1 ? 'bundle' : 'bundles'}</h1>
${totals(s)}
</header>
<section id="signatures"><h2>Failed (${s.failed}): ${s.groups.length} ${s.groups.length === 1 ? 'signature' : 'signatures'}</h2>
${signatureTable(s)}
</section>
${caseSection('inconclusive', 'Inconclusive', s.inconclusiveCases)}
${caseSection('healthy', 'Healthy', s.healthyCases)}
${unreadableSection(s)}
${s.groups.length > 0 ? html`<section id="details"><h2>Bundles by signature</h2>\n${s.groups.map((g) => signatureDetails(g, records))}\n</section>` : ''}
<footer>Written by bootlens${options.version ? ` ${options.version}` : ''} from triage records (redacted); nothing on this page is loaded from the network.</footer>
</body>
</html>
`;
  return doc.value;
}
