// The self-contained HTML report: verdict banner, per-host stage strip, findings by stage with evidence and context, filters, similar known issues; strict CSP, every bundle string escaped.
import type { AnalysisResult, Evidence, Finding, SimilarIssue, StageState } from '../result/types.js';
import { isStageHome, STAGE_HOME, STAGE_HOMES } from '../taxonomy.js';
import { html, joinHtml, jsonIsland, safeUrl, SafeHtml, splitCode } from './escape.js';
import { REPORT_CSS, REPORT_JS } from './html-assets.js';
import { pageHead, pagePolicy } from './html-page.js';
import { formatTime } from './format.js';
import {
  evidenceLocation,
  findingHosts,
  findingsByStage,
  hostLabel,
  isFailedStage,
  SEVERITIES,
  similarityNote,
  similarityScore,
  STATUS_LABEL,
  stageTitle,
  verdictHeadline,
} from './summary.js';
import { maxOf, minOf } from '../util/arrays.js';
import { nameTable } from '../util/name-table.js';
import { byCodeUnits } from '../util/byte-order.js';
import { rootFinding } from '../result/root-finding.js';

/** The analyze report's policy: its one stylesheet and one script, named by hash. */
export function contentSecurityPolicy(): string {
  return pagePolicy(REPORT_CSS, REPORT_JS);
}

/** `57s`, `4m 12s`, `1h 01m`. */
export function formatDuration(ms: number): string {
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m ${String(s % 60).padStart(2, '0')}s`;
  const h = Math.floor(s / 3600);
  return `${h}h ${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m`;
}

/** Rule-authored text with its `code` spans as `<code>`, everything else escaped. */
function richText(text: string): SafeHtml {
  return joinHtml(splitCode(text).map((p) => (p.code ? html`<code>${p.text}</code>` : html`${p.text}`)));
}

// The stage strip: an inline SVG, so it needs no script, no inline style and prints as drawn.

const VIEW_W = 1000;
const LABEL_X = 8;
const BAR_X0 = 250;
const BAR_X1 = 990;
const AXIS_H = 34;
const GROUP_H = 26;
const ROW_H = 24;

const GROUP_LABEL = nameTable<string>({ bootstrap: 'Bootstrap host', masters: 'Masters', workers: 'Workers', cluster: 'Cluster-wide' });

/** Stages placed on the strip, per host group; stages with no host, time or verdict are left to the table. */
function hostGroups(r: AnalysisResult): { name: string; stages: StageState[] }[] {
  const groups = new Map<string, StageState[]>();
  for (const s of r.stages) {
    const placed = s.status !== 'unknown' && s.status !== 'not-reached';
    if (!placed && s.start === undefined && s.end === undefined && !isFailedStage(r, s)) continue;
    for (const h of s.hosts.length > 0 ? s.hosts : [STAGE_HOME[s.id]]) groups.set(h, [...(groups.get(h) ?? []), s]);
  }
  const rank = (n: string): number => (isStageHome(n) ? STAGE_HOMES.indexOf(n) : STAGE_HOMES.length);
  return [...groups.entries()].sort((a, b) => rank(a[0]) - rank(b[0]) || byCodeUnits(a[0], b[0])).map(([name, stages]) => ({ name, stages }));
}

function timeRange(r: AnalysisResult): { t0: number; t1: number } | undefined {
  const times: number[] = [];
  for (const s of r.stages) {
    for (const t of [s.start, s.end, ...s.evidence.map((e) => e.time)]) if (t !== undefined && Number.isFinite(t)) times.push(t);
  }
  for (const f of r.findings) for (const t of [f.firstTime, f.lastTime]) if (t !== undefined && Number.isFinite(t)) times.push(t);
  if (times.length === 0) return undefined;
  let t0 = minOf(times);
  let t1 = maxOf(times);
  if (t1 - t0 < 60_000) {
    t0 -= 30_000;
    t1 += 30_000;
  }
  return { t0, t1 };
}

function tickLabel(t: number, span: number): string {
  const iso = new Date(t).toISOString();
  return span > 20 * 3600_000 ? `${iso.slice(5, 10)} ${iso.slice(11, 16)}` : iso.slice(11, 19);
}

function stageRow(r: AnalysisResult, s: StageState, y: number, x: ((t: number) => number) | undefined, prefix: string): SafeHtml {
  const failed = isFailedStage(r, s);
  const cls = `row${failed ? ' failed' : ''}`;
  const label = `${failed ? '✖ ' : ''}${s.id}`;
  const mid = y + ROW_H / 2 + 4;
  const tip = `${s.id}: ${STATUS_LABEL[s.status]}${failed && s.status !== 'failed' ? ' (the verdict names this stage)' : ''}; start ${formatTime(s.start)}, end ${formatTime(s.end)}${s.decidedBy ? `; decided by ${s.decidedBy}` : ''}`;
  const parts: SafeHtml[] = [html`<rect class="bg" x="0" y="${y}" width="${VIEW_W}" height="${ROW_H}"/>`, html`<text class="label" x="${LABEL_X + 12}" y="${mid}">${label}</text>`];
  const statusWord = failed ? `✖ ${STATUS_LABEL[s.status]}` : STATUS_LABEL[s.status];
  let note: { x: number; anchor: 'start' | 'end'; text: string; inside: boolean };
  if (x && (s.start !== undefined || s.end !== undefined)) {
    const open = s.end === undefined;
    const xs = x(s.start ?? (s.end as number));
    const xe = s.end !== undefined ? x(s.end) : BAR_X1;
    const barY = y + 5;
    const barH = ROW_H - 10;
    if (s.start === undefined) {
      // Only an end time: a milestone diamond.
      const cx = xe;
      const cy = y + ROW_H / 2;
      parts.push(html`<polygon class="bar s-${s.status}" points="${cx},${cy - 7} ${cx + 7},${cy} ${cx},${cy + 7} ${cx - 7},${cy}"/>`);
    } else {
      const w = Math.max(xe - xs, 3);
      parts.push(html`<rect class="bar s-${s.status}${open ? ' open' : ''}" x="${xs.toFixed(1)}" y="${barY}" width="${w.toFixed(1)}" height="${barH}" rx="3"/>`);
    }
    const dur = s.start !== undefined && s.end !== undefined ? ` after ${formatDuration(s.end - s.start)}` : open ? ', no end recorded' : '';
    const text = `${statusWord}${dur}`;
    // The note goes right of the bar, else left of it, else inside it (white on the bar).
    const room = text.length * 6.5;
    if (xe + 8 + room <= VIEW_W) note = { x: xe + 8, anchor: 'start', text, inside: false };
    else if (xs - 8 - room >= BAR_X0) note = { x: xs - 8, anchor: 'end', text, inside: false };
    else note = { x: xs + 8, anchor: 'start', text, inside: true };
  } else {
    note = { x: BAR_X0, anchor: 'start', text: `${statusWord} (no times recorded)`, inside: false };
  }
  parts.push(html`<text class="note${note.inside ? ' inside' : ''}" x="${note.x.toFixed(1)}" y="${mid}" text-anchor="${note.anchor}">${note.text}</text>`);
  return html`<g class="${cls}" data-stage="${s.id}" data-status="${s.status}" id="${prefix}-strip-${s.id}"><title>${tip}</title>${parts}</g>`;
}

function stageStrip(r: AnalysisResult, prefix: string): SafeHtml {
  const groups = hostGroups(r);
  if (groups.length === 0) return html`<p class="muted">No stage has a time or a host in this bundle; see the table below.</p>`;
  const range = timeRange(r);
  const x = range ? (t: number): number => BAR_X0 + ((t - range.t0) / (range.t1 - range.t0)) * (BAR_X1 - BAR_X0) : undefined;
  const rows: SafeHtml[] = [];
  let y = AXIS_H;
  for (const g of groups) {
    rows.push(html`<g class="group" data-host="${g.name}"><text x="${LABEL_X}" y="${y + 17}">${GROUP_LABEL[g.name] ?? g.name}</text><line x1="${LABEL_X}" x2="${VIEW_W - 10}" y1="${y + GROUP_H - 2}" y2="${y + GROUP_H - 2}" stroke="#eaecf0"/></g>`);
    y += GROUP_H;
    for (const s of g.stages) {
      rows.push(stageRow(r, s, y, x, `${prefix}-${g.name.replace(/[^A-Za-z0-9_-]/g, '_')}`));
      y += ROW_H;
    }
  }
  const height = y + 6;
  const axis: SafeHtml[] = [];
  if (range && x) {
    const span = range.t1 - range.t0;
    for (let k = 0; k <= 4; k++) {
      const t = range.t0 + (span * k) / 4;
      const tx = x(t);
      axis.push(
        html`<line x1="${tx.toFixed(1)}" x2="${tx.toFixed(1)}" y1="${AXIS_H - 6}" y2="${height - 4}"/><text x="${tx.toFixed(1)}" y="${AXIS_H - 12}" text-anchor="${k === 0 ? 'start' : k === 4 ? 'end' : 'middle'}">${tickLabel(t, span)}</text>`,
      );
    }
  } else {
    axis.push(html`<text x="${BAR_X0}" y="${AXIS_H - 12}">no times recorded in this bundle</text>`);
  }
  const caption = range ? `Times in UTC, ${formatTime(range.t0)} to ${formatTime(range.t1)}.` : 'The bundle records no stage times.';
  return html`<figure class="strip">
<svg class="gantt" role="img" aria-labelledby="${prefix}-strip-title" viewBox="0 0 ${VIEW_W} ${height}" width="${VIEW_W}" height="${height}" xmlns="http://www.w3.org/2000/svg"><title id="${prefix}-strip-title">Bootstrap stages per host for ${r.bundle.name}</title><g class="axis">${axis}</g>${rows}</svg>
<figcaption class="legend">${caption} <span><i class="k-ok"></i>ok</span><span><i class="k-failed"></i>failed</span><span><i class="k-in-progress"></i>in progress</span><span><i class="k-not-reached"></i>not reached</span><span><i class="k-unknown"></i>unknown</span> A dashed bar has no recorded end; a diamond is a stage seen only when it ended.</figcaption>
</figure>`;
}

function stageTable(r: AnalysisResult): SafeHtml {
  const rows = r.stages.map((s, i) => {
    const failed = isFailedStage(r, s);
    const e = s.evidence[0];
    const dur = s.start !== undefined && s.end !== undefined ? formatDuration(s.end - s.start) : '-';
    return html`<tr class="${failed ? 'failed' : ''}" data-stage="${s.id}"><td class="num">${i + 1}</td><td><code>${s.id}</code>${failed ? ' ◀' : ''}<br><span class="muted">${stageTitle(s.id)}</span></td><td><span class="status s-${s.status}">${failed ? '✖ ' : ''}${STATUS_LABEL[s.status]}</span></td><td>${formatTime(s.start)}</td><td>${formatTime(s.end)}</td><td>${dur}</td><td>${s.hosts.join(', ') || '-'}</td><td>${s.decidedBy ?? '-'}${e ? html`<br><span class="muted"><code>${evidenceLocation(e)}</code> ${e.text}</span>` : ''}</td></tr>`;
  });
  return html`<table class="stages"><thead><tr><th>#</th><th>Stage</th><th>Status</th><th>Start (UTC)</th><th>End (UTC)</th><th>Took</th><th>Hosts</th><th>Decided by</th></tr></thead><tbody>${rows}</tbody></table>`;
}

// Findings

/**
 * The cited line whole, the part the finding is about highlighted, and the values it names (a
 * file, an image, a host) marked beside it, when the evidence says where they are.
 */
function citedLine(e: Evidence): SafeHtml {
  const marks = [...(e.match ? [{ ...e.match, kind: 'match' }] : []), ...(e.facts ?? []).map((f) => ({ ...f, kind: 'fact' }))]
    .filter((m) => m.start >= 0 && m.end > m.start && m.end <= e.text.length)
    .sort((a, b) => a.start - b.start);
  const parts: SafeHtml[] = [];
  let at = 0;
  for (const m of marks) {
    // Overlapping marks: the one that starts first wins.
    if (m.start < at) continue;
    parts.push(html`${e.text.slice(at, m.start)}<mark class="${m.kind}">${e.text.slice(m.start, m.end)}</mark>`);
    at = m.end;
  }
  parts.push(html`${e.text.slice(at)}`);
  return html`${parts}`;
}

function evidenceItem(e: Evidence): SafeHtml {
  const before = e.before ?? [];
  const after = e.after ?? [];
  const context =
    before.length + after.length > 0
      ? html`<details><summary>Journal context: ${before.length} line${before.length === 1 ? '' : 's'} before, ${after.length} after</summary><pre class="context">${joinHtml(
          [...before.map((l) => html`${l}`), html`<mark>${e.text}</mark>`, ...after.map((l) => html`${l}`)],
          '\n',
        )}</pre></details>`
      : '';
  return html`<li><div class="loc"><code>${evidenceLocation(e)}</code>${e.time !== undefined ? html` · <time>${formatTime(e.time)}</time>` : ''}${e.host ? html` · ${e.host}` : ''}${e.repeats !== undefined && e.repeats > 1 ? html` · ×${e.repeats}` : ''}</div><pre class="line">${citedLine(e)}</pre>${context}</li>`;
}

/** References as list items: a link when the text is an http(s) URL, plain text otherwise. */
function referenceItems(references: readonly string[]): SafeHtml[] {
  return references.map((ref) => {
    const url = safeUrl(ref);
    return url ? html`<li><a href="${url}" rel="noopener noreferrer">${ref}</a></li>` : html`<li>${ref}</li>`;
  });
}

function findingCard(f: Finding, id: string, rootCause: boolean): SafeHtml {
  const hosts = findingHosts(f);
  const when = f.firstTime !== undefined ? ` · ${formatTime(f.firstTime)}${f.lastTime !== undefined && f.lastTime !== f.firstTime ? ` to ${formatTime(f.lastTime)}` : ''}` : '';
  const refs = referenceItems(f.references);
  return html`<article class="finding sev-${f.severity}" id="${id}" data-severity="${f.severity}" data-stage="${f.stage}" data-hosts="${JSON.stringify(hosts)}" data-rule="${f.ruleId}">
<header><span class="badge sev-${f.severity}">${f.severity}</span> ${rootCause ? html`<span class="badge root">★ root cause</span> ` : ''}<h4>${f.title}</h4><code class="rule">${f.ruleId}</code></header>
<p class="meta">category <code>${f.category}</code> · confidence ${f.confidence}${hosts.length > 0 ? ` · ${hosts.join(', ')}` : ''}${when}</p>
<p class="message">${f.message}</p>
${f.evidence.length > 0 ? html`<h5>Evidence</h5><ol class="evidence">${f.evidence.map(evidenceItem)}</ol>` : ''}
${f.fix.length > 0 ? html`<h5>Fix</h5><ol class="fix">${f.fix.map((step) => html`<li>${richText(step)}</li>`)}</ol>` : ''}
${refs.length > 0 ? html`<h5>References</h5><ul class="refs">${refs}</ul>` : ''}
</article>`;
}

function countBy(values: string[]): Map<string, number> {
  const m = new Map<string, number>();
  for (const v of values) m.set(v, (m.get(v) ?? 0) + 1);
  return m;
}

/** What the filter script needs, as plain data (the island is the script's only input). */
function filterData(r: AnalysisResult): unknown {
  const sev = countBy(r.findings.map((f) => f.severity));
  const hosts = countBy(r.findings.flatMap(findingHosts));
  return {
    severities: SEVERITIES.filter((s) => sev.has(s)).map((s) => ({ id: s, count: sev.get(s) })),
    hosts: [...hosts.keys()].sort().map((h) => ({ id: h, label: h, count: hosts.get(h) })),
    stages: findingsByStage(r.findings).map((g) => ({ id: g.stage, label: `${r.stages.findIndex((s) => s.id === g.stage) + 1}. ${g.stage}`, count: g.findings.length })),
  };
}

function findingsSection(r: AnalysisResult, prefix: string): SafeHtml {
  let n = 0;
  const groups = findingsByStage(r.findings).map((g) => {
    const s = r.stages.find((x) => x.id === g.stage);
    const index = r.stages.findIndex((x) => x.id === g.stage) + 1;
    const root = rootFinding(r);
    const cards = g.findings.map((f) => findingCard(f, `${prefix}-f${++n}`, f === root));
    return html`<section class="stage-group" id="${prefix}-stage-${g.stage}" data-stage="${g.stage}"><h3>${index}. <code>${g.stage}</code> <span class="title">— ${stageTitle(g.stage)}</span>${s ? html` <span class="status s-${s.status}">${isFailedStage(r, s) ? '✖ ' : ''}${STATUS_LABEL[s.status]}</span>` : ''}</h3>
${cards}</section>`;
  });
  return html`<section class="findings" id="${prefix}-findings"><h2>Findings (${r.findings.length})</h2>
<form class="filters" hidden aria-label="Filter findings"></form><p class="filter-status" hidden aria-live="polite"></p>
${r.findings.length === 0 ? html`<p>None.</p>` : groups}
</section>`;
}

// Similar known issues

function similarCard(r: AnalysisResult, issue: SimilarIssue, id: string): SafeHtml {
  const used = issue.id === r.verdict.knownIssue;
  const lines = issue.matchedLines.map(
    (m) => html`<li><div class="loc"><code>${evidenceLocation(m)}</code> · similarity ${similarityScore(m.score)}</div><pre class="line">${m.text}</pre></li>`,
  );
  const refs = referenceItems(issue.references);
  return html`<article class="known-issue" id="${id}" data-known-issue="${issue.id}" data-stage="${issue.stage}">
<header><span class="badge score">similarity ${similarityScore(issue.score)}</span> ${used ? html`<span class="badge root">★ verdict category</span> ` : ''}<h4>${issue.title}</h4><code class="rule">${issue.id}</code></header>
<p class="meta">stage <code>${issue.stage}</code> · category <code>${issue.category}</code>${issue.rule ? html` · also covered by rule <code>${issue.rule}</code>` : ''}${used ? " · the verdict's category comes from it" : ''}</p>
${lines.length > 0 ? html`<h5>Matched lines</h5><ol class="evidence">${lines}</ol>` : ''}
${issue.fix.length > 0 ? html`<h5>Fix</h5><ol class="fix">${issue.fix.map((step) => html`<li>${richText(step)}</li>`)}</ol>` : ''}
${refs.length > 0 ? html`<h5>References</h5><ul class="refs">${refs}</ul>` : ''}
</article>`;
}

/** The known issues the logs look like; nothing when there are none. */
function similarSection(r: AnalysisResult, prefix: string): SafeHtml {
  if (r.similar.length === 0) return html``;
  return html`<section class="similar" id="${prefix}-similar"><h2>Similar known issues (${r.similar.length})</h2>
<p class="muted">${similarityNote(r)}</p>
${joinHtml(
    r.similar.map((issue, i) => similarCard(r, issue, `${prefix}-k${i + 1}`)),
    '\n',
  )}
</section>`;
}

function restSections(r: AnalysisResult, prefix: string): SafeHtml {
  const parts: SafeHtml[] = [];
  if (r.suppressed.length > 0) {
    parts.push(
      html`<section id="${prefix}-suppressed"><h2>Suppressed (${r.suppressed.length})</h2><ul>${r.suppressed.map(
        (s) => html`<li><code>${s.finding.ruleId}</code> ${s.finding.title} <span class="muted">(reason: ${s.reason})</span></li>`,
      )}</ul></section>`,
    );
  }
  if (r.similar.length > 0) parts.push(similarSection(r, prefix));
  const rules = r.rules;
  parts.push(html`<section id="${prefix}-rules"><h2>Rules</h2><p>${rules.total} rules: ${rules.fired.length} fired, ${rules.passed.length} passed, ${rules.skipped.length} skipped for missing input${rules.errors.length > 0 ? `, ${rules.errors.length} failed to run` : ''}.</p>
${rules.skipped.length > 0 ? html`<ul>${rules.skipped.map((s) => html`<li><code>${s.ruleId}</code> skipped, missing: ${s.missing.join(', ')}</li>`)}</ul>` : ''}
${rules.errors.length > 0 ? html`<ul>${rules.errors.map((e) => html`<li><code>${e.ruleId}</code> failed to run: ${e.error}</li>`)}</ul>` : ''}
</section>`);
  const byContent = r.bundle.layout.readByContent ?? [];
  if (byContent.length > 0) {
    parts.push(
      html`<section id="${prefix}-read-by-content"><h2>Read by content (${byContent.length})</h2><table><thead><tr><th>File</th><th>Read as</th></tr></thead><tbody>${byContent.map(
        (f) => html`<tr><td><code>${f.file}</code></td><td>${f.as}</td></tr>`,
      )}</tbody></table></section>`,
    );
  }
  if (r.problems.length > 0) {
    parts.push(
      html`<section id="${prefix}-problems"><h2>Could not read (${r.problems.length})</h2><table><thead><tr><th>Problem</th><th>File</th><th>Message</th></tr></thead><tbody>${r.problems.map(
        (p) => html`<tr><td>${p.kind}</td><td><code>${evidenceLocation(p)}</code></td><td>${p.message}</td></tr>`,
      )}</tbody></table></section>`,
    );
  }
  return joinHtml(parts, '\n');
}

function bundleSection(r: AnalysisResult, index: number): SafeHtml {
  const prefix = `b${index}`;
  const v = r.verdict;
  const icon = v.status === 'failed' ? '✖' : v.status === 'healthy' ? '✔' : '?';
  const headline = v.status === 'failed' ? `FAILED at ${v.stage ?? 'an unknown stage'}` : verdictHeadline(r);
  const facts = [
    v.stage ? stageTitle(v.stage) : '',
    v.category ? `category ${v.category}${v.knownIssue ? ` (from similarity to known issue ${v.knownIssue}; no rule decided it)` : ''}` : '',
    `confidence ${v.confidence}`,
    v.ciFailureMode ? `CI failure mode: ${v.ciFailureMode}` : '',
    v.rootCause ? `root cause rule ${v.rootCause}` : '',
  ].filter(Boolean);
  const hosts = r.bundle.hosts.map(hostLabel);
  return html`<section class="bundle" id="${prefix}" data-bundle="${r.bundle.name}">
<header class="verdict ${v.status}" id="${prefix}-verdict" role="status">
<p class="eyebrow">bootlens ${r.tool.version} · bundle <code>${r.bundle.name}</code> (${r.bundle.format})${r.bundle.gatherId ? html` · gather id <code>${r.bundle.gatherId}</code>` : ''}</p>
<h1><span aria-hidden="true">${icon}</span> ${headline}</h1>
<p class="facts">${facts.join(' · ')}</p>
<p class="summary">${richText(v.summary)}</p>
<p class="hosts">${hosts.length > 0 ? `Hosts: ${hosts.join(', ')}` : 'No hosts found in the bundle.'}</p>
</header>
<nav class="toc"><a href="#${prefix}-timeline">Stage timeline</a><a href="#${prefix}-findings">Findings (${r.findings.length})</a>${r.similar.length > 0 ? html`<a href="#${prefix}-similar">Similar known issues (${r.similar.length})</a>` : ''}<a href="#${prefix}-rules">Rules</a>${r.problems.length > 0 ? html`<a href="#${prefix}-problems">Could not read (${r.problems.length})</a>` : ''}</nav>
<section class="timeline" id="${prefix}-timeline"><h2>Stage timeline</h2>
${stageStrip(r, prefix)}
${stageTable(r)}
</section>
${findingsSection(r, prefix)}
${restSections(r, prefix)}
${jsonIsland(`${prefix}-data`, filterData(r), 'bl-data')}
</section>`;
}

/** Renders results as one self-contained HTML document (a section per bundle). */
export function renderHtmlReport(results: readonly AnalysisResult[]): string {
  const title = results.length === 1 ? `bootlens: ${results[0].bundle.name}: ${verdictHeadline(results[0])}` : `bootlens: ${results.length} bundles`;
  const doc = html`${pageHead({ title, version: results[0]?.tool.version ?? '', css: REPORT_CSS, js: REPORT_JS })}
${results.map((r, i) => bundleSection(r, i))}
<footer>Written by bootlens from the bundle alone; nothing on this page is loaded from the network.</footer>
<script>${SafeHtml.trusted(REPORT_JS)}</script>
</body>
</html>
`;
  return doc.value;
}

/** Renders one result as a self-contained HTML document. */
export function renderHtml(r: AnalysisResult): string {
  return renderHtmlReport([r]);
}
