// The HTML report's inline stylesheet and script, kept as constants so the page can name their exact sha256 in its Content-Security-Policy.

/** The stylesheet: screen and print, no external fonts or images. */
export const REPORT_CSS = `
:root {
  --fg: #1d2939; --muted: #667085; --line: #d0d5dd; --bg: #ffffff; --panel: #f9fafb;
  --ok: #12b76a; --failed: #d92d20; --progress: #f79009; --not-reached: #98a2b3; --unknown: #d0d5dd;
  --critical: #7a0916; --error: #d92d20; --warning: #b54708; --info: #175cd3; --similar: #6941c6;
  --mono: ui-monospace, SFMono-Regular, Menlo, Consolas, "Liberation Mono", monospace;
}
* { box-sizing: border-box; }
[hidden] { display: none !important; }
html { font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; color: var(--fg); background: var(--bg); }
body { margin: 0 auto; max-width: 1180px; padding: 24px; }
code, pre, kbd { font-family: var(--mono); font-size: 0.9em; }
pre { white-space: pre-wrap; overflow-wrap: anywhere; margin: 0; }
a { color: var(--info); }
h2 { font-size: 1.3rem; margin: 32px 0 12px; border-bottom: 1px solid var(--line); padding-bottom: 4px; }
h3 { font-size: 1.1rem; margin: 24px 0 8px; }
h4 { font-size: 1rem; margin: 0; display: inline; }
h5 { font-size: 0.85rem; text-transform: uppercase; letter-spacing: 0.04em; color: var(--muted); margin: 14px 0 6px; }
.bundle + .bundle { margin-top: 56px; border-top: 4px double var(--line); padding-top: 24px; }
.verdict { border-radius: 10px; padding: 18px 22px; border: 1px solid var(--line); border-left-width: 10px; background: var(--panel); }
.verdict.failed { border-color: var(--failed); background: #fef3f2; }
.verdict.healthy { border-color: var(--ok); background: #ecfdf3; }
.verdict.inconclusive { border-color: var(--progress); background: #fffaeb; }
.verdict .eyebrow { margin: 0; color: var(--muted); font-size: 0.85rem; overflow-wrap: anywhere; }
.verdict h1 { margin: 4px 0; font-size: 1.7rem; }
.verdict.failed h1 { color: #912018; }
.verdict .facts { margin: 0 0 8px; font-weight: 600; }
.verdict .summary { margin: 8px 0; max-width: 95ch; }
.verdict .hosts { margin: 0; color: var(--muted); font-size: 0.9rem; }
nav.toc { margin: 12px 0 0; font-size: 0.9rem; }
nav.toc a { margin-right: 14px; }
.gantt { width: 100%; height: auto; display: block; margin: 8px 0 4px; font-family: system-ui, sans-serif; }
.gantt text { font-size: 12px; fill: var(--fg); }
.gantt .axis line { stroke: var(--line); }
.gantt .axis text { fill: var(--muted); font-size: 11px; }
.gantt .group text { font-weight: 700; font-size: 12px; fill: var(--muted); text-transform: uppercase; letter-spacing: 0.05em; }
.gantt .row .bg { fill: transparent; }
.gantt .row.failed .bg { fill: #fee4e2; }
.gantt .row.failed .label { fill: #912018; font-weight: 700; }
.gantt .bar { stroke: rgba(0,0,0,0.25); stroke-width: 0.5; }
.gantt .s-ok { fill: var(--ok); }
.gantt .s-failed { fill: var(--failed); }
.gantt .s-in-progress { fill: var(--progress); }
.gantt .s-not-reached { fill: var(--not-reached); }
.gantt .s-unknown { fill: var(--unknown); }
.gantt .open { stroke-dasharray: 4 3; stroke: #000; stroke-width: 1; }
.gantt .note { fill: var(--muted); font-style: italic; }
.gantt .row.failed .note { fill: #912018; font-weight: 700; font-style: normal; }
.gantt .note.inside, .gantt .row.failed .note.inside { fill: #ffffff; font-weight: 700; font-style: normal; }
.legend { font-size: 0.85rem; color: var(--muted); margin: 0 0 12px; }
.legend span { margin-right: 14px; white-space: nowrap; }
.legend i { display: inline-block; width: 12px; height: 12px; border-radius: 2px; vertical-align: -1px; margin-right: 4px; }
.legend .k-ok { background: var(--ok); } .legend .k-failed { background: var(--failed); } .legend .k-in-progress { background: var(--progress); }
.legend .k-not-reached { background: var(--not-reached); } .legend .k-unknown { background: var(--unknown); }
table { border-collapse: collapse; width: 100%; font-size: 0.9rem; }
th, td { text-align: left; padding: 5px 8px; border-bottom: 1px solid var(--line); vertical-align: top; }
td code { overflow-wrap: anywhere; }
th { background: var(--panel); }
td.num { text-align: right; color: var(--muted); }
tr.failed td { background: #fef3f2; font-weight: 600; }
table.stages td:nth-child(2) { min-width: 13em; }
table.stages td:nth-child(4), table.stages td:nth-child(5) { min-width: 6.5em; }
.status { display: inline-block; padding: 0 8px; border-radius: 10px; font-size: 0.8rem; font-weight: 600; white-space: nowrap; }
.status.s-ok { background: #d1fadf; color: #05603a; }
.status.s-failed { background: var(--failed); color: #fff; }
.status.s-in-progress { background: #fef0c7; color: #93370d; }
.status.s-not-reached, .status.s-unknown { background: #f2f4f7; color: #475467; }
.badge { display: inline-block; padding: 1px 8px; border-radius: 4px; font-size: 0.75rem; font-weight: 700; text-transform: uppercase; letter-spacing: 0.04em; color: #fff; vertical-align: 2px; }
.badge.sev-critical { background: var(--critical); } .badge.sev-error { background: var(--error); }
.badge.sev-warning { background: #f79009; color: #1d2939; } .badge.sev-info { background: var(--info); }
.badge.root { background: #fff; color: #912018; border: 1px solid #912018; }
form.filters { display: flex; flex-wrap: wrap; gap: 10px 18px; align-items: center; padding: 10px 12px; background: var(--panel); border: 1px solid var(--line); border-radius: 8px; margin: 0 0 8px; font-size: 0.9rem; }
form.filters fieldset { border: 0; margin: 0; padding: 0; display: flex; gap: 8px; align-items: center; flex-wrap: wrap; }
form.filters legend { float: left; margin-right: 6px; font-weight: 600; }
form.filters label { cursor: pointer; }
form.filters .badge { cursor: pointer; }
.filter-status { color: var(--muted); font-size: 0.85rem; margin: 0 0 8px; }
.stage-group > h3 .title { color: var(--muted); font-weight: 400; }
article.finding { border: 1px solid var(--line); border-left: 6px solid var(--info); border-radius: 8px; padding: 12px 16px; margin: 0 0 14px; background: #fff; }
article.finding.sev-critical { border-left-color: var(--critical); } article.finding.sev-error { border-left-color: var(--error); }
article.finding.sev-warning { border-left-color: #f79009; }
article.finding .rule { color: var(--muted); margin-left: 6px; }
article.finding .meta { color: var(--muted); font-size: 0.85rem; margin: 4px 0; }
article.finding .message { margin: 6px 0; }
article.known-issue { border: 1px solid var(--line); border-left: 6px solid var(--similar); border-radius: 8px; padding: 12px 16px; margin: 0 0 14px; background: #fff; }
article.known-issue .rule { color: var(--muted); margin-left: 6px; }
article.known-issue .meta { color: var(--muted); font-size: 0.85rem; margin: 4px 0; }
.badge.score { background: var(--similar); text-transform: none; }
ol.evidence { list-style: none; padding: 0; margin: 0; }
ol.evidence > li { margin: 0 0 10px; }
.loc { font-size: 0.85rem; color: var(--muted); }
.loc code { color: var(--fg); overflow-wrap: anywhere; }
pre.line { background: #101828; color: #f2f4f7; padding: 6px 10px; border-radius: 6px; margin-top: 2px; }
details { margin-top: 4px; }
details > summary { cursor: pointer; color: var(--info); font-size: 0.85rem; }
pre.context { background: #f2f4f7; padding: 6px 10px; border-radius: 6px; margin-top: 4px; color: #475467; }
pre.context mark { background: #fef0c7; color: #101828; font-weight: 600; }
pre.line mark.match { background: #fdb022; color: #101828; border-radius: 2px; }
pre.line mark.fact { background: #b2ddff; color: #101828; border-radius: 2px; }
ol.fix li { margin: 2px 0; }
ul.refs { margin: 0; padding-left: 20px; font-size: 0.9rem; overflow-wrap: anywhere; }
.muted { color: var(--muted); }
footer { margin-top: 40px; color: var(--muted); font-size: 0.8rem; }
@media print {
  html { font-size: 11pt; }
  body { max-width: none; padding: 0; }
  nav.toc, form.filters, .filter-status { display: none !important; }
  .verdict, article.finding, article.known-issue, table, .gantt { break-inside: avoid; }
  h2, h3 { break-after: avoid; }
  details > summary { display: none; }
  details::details-content { content-visibility: visible; display: block; }
  pre.line { background: #fff; color: #000; border: 1px solid #98a2b3; }
  a[href^="http"]::after { content: " <" attr(href) ">"; color: var(--muted); }
  ul.refs a::after { content: ""; }
  .bundle + .bundle { break-before: page; }
}
`;

/**
 * The filters: built from each bundle's JSON data island, with DOM calls only (never
 * innerHTML), so no bundle text is ever parsed as markup. Without it every finding shows.
 */
export const REPORT_JS = `
(function () {
  'use strict';
  function el(tag, attrs, text) {
    var e = document.createElement(tag);
    if (attrs) Object.keys(attrs).forEach(function (k) { e.setAttribute(k, attrs[k]); });
    if (text !== undefined) e.textContent = text;
    return e;
  }
  function choice(name, label, options, allText) {
    var wrap = el('label', { 'class': 'filter-' + name }, label + ' ');
    var sel = el('select', { name: name });
    sel.appendChild(el('option', { value: '' }, allText));
    options.forEach(function (o) { sel.appendChild(el('option', { value: o.id }, o.label + ' (' + o.count + ')')); });
    wrap.appendChild(sel);
    return wrap;
  }
  function setup(bundle) {
    var island = bundle.querySelector('script.bl-data');
    var form = bundle.querySelector('form.filters');
    var status = bundle.querySelector('.filter-status');
    var findings = Array.prototype.slice.call(bundle.querySelectorAll('article.finding'));
    var groups = Array.prototype.slice.call(bundle.querySelectorAll('section.stage-group'));
    if (!island || !form || !status || findings.length === 0) return;
    var data = JSON.parse(island.textContent || '{}');
    var sev = el('fieldset', { 'class': 'filter-severity' });
    sev.appendChild(el('legend', null, 'Severity'));
    data.severities.forEach(function (s) {
      var label = el('label', { 'class': 'badge sev-' + s.id });
      // checked by default, so the form's reset ("Show all") ticks it again.
      var box = el('input', { type: 'checkbox', name: 'severity', value: s.id, checked: '' });
      label.appendChild(box);
      label.appendChild(document.createTextNode(' ' + s.id + ' (' + s.count + ')'));
      sev.appendChild(label);
    });
    form.appendChild(sev);
    if (data.hosts.length > 0) form.appendChild(choice('host', 'Host', data.hosts, 'all hosts'));
    form.appendChild(choice('stage', 'Stage', data.stages, 'all stages'));
    form.appendChild(el('button', { type: 'reset' }, 'Show all'));
    function apply() {
      var shownSev = {};
      Array.prototype.forEach.call(form.querySelectorAll('input[name="severity"]'), function (b) { shownSev[b.value] = b.checked; });
      var hostSel = form.querySelector('select[name="host"]');
      var host = hostSel ? hostSel.value : '';
      var stage = form.querySelector('select[name="stage"]').value;
      var shown = 0;
      findings.forEach(function (f) {
        var hosts = [];
        try { hosts = JSON.parse(f.getAttribute('data-hosts') || '[]'); } catch (err) { hosts = []; }
        var ok = shownSev[f.getAttribute('data-severity')] !== false &&
          (!host || hosts.indexOf(host) >= 0) &&
          (!stage || f.getAttribute('data-stage') === stage);
        f.hidden = !ok;
        if (ok) shown++;
      });
      groups.forEach(function (g) { g.hidden = !g.querySelector('article.finding:not([hidden])'); });
      status.textContent = 'Showing ' + shown + ' of ' + findings.length + ' findings.';
    }
    form.addEventListener('change', apply);
    form.addEventListener('reset', function () { setTimeout(apply, 0); });
    form.addEventListener('submit', function (e) { e.preventDefault(); });
    form.hidden = false;
    status.hidden = false;
    apply();
  }
  Array.prototype.forEach.call(document.querySelectorAll('section.bundle'), setup);
  // Printing shows every journal context: open the closed ones, close them again afterwards.
  var opened = [];
  window.addEventListener('beforeprint', function () {
    Array.prototype.forEach.call(document.querySelectorAll('details:not([open])'), function (d) { d.open = true; opened.push(d); });
  });
  window.addEventListener('afterprint', function () {
    opened.forEach(function (d) { d.open = false; });
    opened = [];
  });
})();
`;
