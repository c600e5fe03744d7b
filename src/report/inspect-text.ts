// Renders what `bootlens inspect` found in a bundle as terminal tables. Reads the model only.
// Every bundle string goes through the terminal escaping of format.ts (oneLine, renderTable).
import type { Bundle, Host, Journal, LogSummary, ServiceRecord } from '../model/types.js';
import { bundleHosts } from '../model/walk.js';
import { fitWidth, formatBytes, formatTime, layoutWidth, oneLine, renderTable } from './format.js';
import { byCodeUnits } from '../util/byte-order.js';

export interface InspectTextOptions {
  /** Columns to fit tables into; `Infinity` for full lines (`--wide`). */
  width?: number;
}

/** Rows under a heading, rendered once all are known (column widths depend on every row). */
class Rows {
  readonly rows: string[][] = [];
  constructor(
    readonly head: string[],
    private readonly width: number,
  ) {}

  push(row: string[]): void {
    this.rows.push(row);
  }

  toString(): string {
    return renderTable(this.head, this.rows, this.width);
  }
}

function hostLabel(h: Host): string {
  return h.role === 'bootstrap' ? `bootstrap${h.hostname ? ` (${h.hostname})` : ''}` : `master ${h.address}${h.hostname ? ` (${h.hostname})` : ''}`;
}

function hosts(bundle: Bundle): Host[] {
  return bundleHosts(bundle);
}

function journalNote(j: Journal): string {
  const notes: string[] = [];
  if (j.noEntries) notes.push('no entries');
  if (j.boots.length > 1) notes.push(`${j.boots.length} boots`);
  if (j.truncatedLines > 0) notes.push(`${j.truncatedLines} cut`);
  if (j.systemdLines.some((l) => /Failed with result|status=\d+\/[A-Z]+/.test(l.text))) notes.push('unit failed');
  return notes.join(', ');
}

function lastRun(record: ServiceRecord): string {
  const run = record.runs[record.runs.length - 1];
  if (!run) return 'no runs';
  const stage = [...run.stages].reverse()[0];
  const stageText = stage ? `${stage.name} (${stage.result ?? 'running'})` : '-';
  return `${run.result ?? 'running'}; last stage ${stageText}`;
}

function logRow(label: string, log: LogSummary): string[] {
  return [label, String(log.lineCount), formatTime(log.firstTime), formatTime(log.lastTime)];
}

/** The full inspect report as text. */
export function renderInspectText(bundle: Bundle, opts: InspectTextOptions = {}): string {
  const width = layoutWidth(opts.width);
  const table = (head: string[]): Rows => new Rows(head, width);
  const out: string[] = [];
  const m = bundle.meta;
  out.push(`Bundle ${oneLine(m.name, 300)}: ${m.format}, ${m.entries} entries, ${formatBytes(m.bytes)} uncompressed${m.gatherId ? `, gather id ${oneLine(m.gatherId, 40)}` : ''}`);
  const layout: string[] = [];
  if (m.layout.bootstrapInPlace) layout.push('single-node (bootstrap-in-place) layout');
  if (m.layout.nestedArchives.length > 0) layout.push(`${m.layout.nestedArchives.length} nested archive(s) read through`);
  if (m.layout.mastersMissing) layout.push('no master was gathered');
  if (layout.length > 0) out.push(`Layout: ${layout.join('; ')}`);
  for (const f of m.layout.readByContent ?? []) out.push(`Read by content: ${oneLine(f.file, 120)} as ${oneLine(f.as, 160)}`);

  const hostTable = table(['Host', 'Role', 'Journals', 'Services', 'Containers', 'Static pods', 'Failed units']);
  for (const h of hosts(bundle)) {
    hostTable.push([
      hostLabel(h),
      h.role,
      String(Object.keys(h.journals).length),
      String(Object.keys(h.serviceRecords).length),
      String(h.containers.length),
      String(h.staticPods.length),
      h.failedUnitsListed ? h.failedUnits.map((u) => u.unit).join(', ') || 'none' : 'not gathered',
    ]);
  }
  out.push('', 'Hosts', hostTable.toString());

  const journals = table(['Host', 'Unit', 'Lines', 'From', 'To', 'Notes']);
  for (const h of hosts(bundle)) {
    for (const j of Object.values(h.journals).sort((a, b) => byCodeUnits(a.unit, b.unit))) {
      journals.push([hostLabel(h), j.unit, String(j.lineCount), formatTime(j.firstTime), formatTime(j.lastTime), journalNote(j)]);
    }
  }
  out.push('', 'Journals', journals.toString());

  const services = table(['Host', 'Service', 'Runs', 'Last run', 'Error']);
  let anyService = false;
  for (const h of hosts(bundle)) {
    for (const r of Object.values(h.serviceRecords)) {
      anyService = true;
      const run = r.runs[r.runs.length - 1];
      const failed = run?.stages.find((s) => s.result === 'failure');
      services.push([hostLabel(h), r.service, String(r.runs.length), lastRun(r), oneLine(failed?.errorMessage ?? run?.errorMessage, 80)]);
    }
  }
  out.push('', 'Service records', anyService ? services.toString() : '  none (older releases write none)');

  const containers = table(['Host', 'Container', 'Runtime', 'State', 'Exit', 'Restarts', 'Log lines']);
  let anyContainer = false;
  for (const h of hosts(bundle)) {
    for (const c of h.containers) {
      anyContainer = true;
      containers.push([
        hostLabel(h),
        c.name ?? c.id.slice(0, 13),
        c.runtime,
        c.state ?? '-',
        c.exitCode === undefined ? '-' : String(c.exitCode),
        c.restartCount === undefined ? '-' : String(c.restartCount),
        c.log ? String(c.log.lineCount) : '-',
      ]);
    }
  }
  if (anyContainer) out.push('', 'Containers', containers.toString());

  const pods = bundle.bootstrap?.staticPods ?? [];
  if (pods.length > 0) {
    const podTable = table(['Static pod', 'Namespace', 'Containers', 'Host paths']);
    for (const p of pods) {
      podTable.push([p.name, p.namespace ?? '-', p.containers.map((c) => `${c.name} ${c.image ?? ''}`.trim()).join('\n'), String(p.hostPaths.length)]);
    }
    out.push('', 'Static pods (rendered assets)', podTable.toString());
  }

  const etcd = table(['Host', 'Members', 'Endpoint health']);
  let anyEtcd = false;
  for (const h of hosts(bundle)) {
    if (!h.etcd) continue;
    anyEtcd = true;
    const members = h.etcd.memberLists.flatMap((l) => l.members.map((mm) => `${mm.name || '(unstarted)'} ${mm.status ?? ''}${mm.isLearner ? ' learner' : ''}`.trim()));
    const health = h.etcd.health.map((e) => `${e.endpoint} ${e.healthy ? 'healthy' : `unhealthy${e.error ? `: ${oneLine(e.error, 60)}` : ''}`}`);
    etcd.push([hostLabel(h), members.join('\n') || '-', health.join('\n') || '-']);
  }
  if (anyEtcd) out.push('', 'etcd', etcd.toString());

  const c = bundle.cluster;
  if (c) {
    const lines: string[] = [];
    const bad = c.files.filter((f) => f.status !== 'ok');
    if (c.nodes) lines.push(`  nodes: ${c.nodes.length} (${c.nodes.filter((n) => n.ready === 'True').length} Ready)`);
    if (c.csrs) lines.push(`  CSRs: ${c.csrs.length} (${c.csrs.filter((x) => x.state === 'Pending').length} Pending)`);
    if (c.clusterVersion?.[0]) {
      const cv = c.clusterVersion[0];
      lines.push(`  cluster version: ${oneLine(cv.desiredVersion ?? '-', 80)} ${oneLine(cv.history[0]?.state ?? '', 40)}`.trimEnd());
    }
    out.push('', 'Cluster resources', ...lines);
    if (c.clusterOperators && c.clusterOperators.length > 0) {
      const ops = table(['Operator', 'Available', 'Progressing', 'Degraded', 'Message']);
      for (const op of c.clusterOperators) {
        const cond = (t: string) => op.conditions.find((x) => x.type === t);
        const troubled = cond('Degraded')?.status === 'True' ? cond('Degraded') : cond('Available')?.status !== 'True' ? cond('Available') : undefined;
        ops.push([op.name, cond('Available')?.status ?? '-', cond('Progressing')?.status ?? '-', cond('Degraded')?.status ?? '-', oneLine(troubled?.message, 70)]);
      }
      out.push(ops.toString());
    }
    if (bad.length > 0) out.push(`  unreadable resource files: ${oneLine(bad.map((f) => `${f.name} (${f.status}${f.message ? `: ${oneLine(f.message, 60)}` : ''})`).join(', '), 2000)}`);
  }

  const logs = table(['Log', 'Lines', 'From', 'To']);
  let anyLog = false;
  if (bundle.gatherLog) {
    anyLog = true;
    logs.push(logRow('gather.log', bundle.gatherLog));
  }
  if (bundle.installerLog) {
    anyLog = true;
    logs.push(logRow('installer log', bundle.installerLog));
  }
  for (const s of bundle.serialLogs) {
    anyLog = true;
    logs.push(logRow(`serial ${s.source.file.split('/').pop() ?? ''}`, s));
  }
  if (anyLog) out.push('', 'Other logs', logs.toString());
  const il = bundle.installerLog;
  if (il) {
    out.push(`  installer ${oneLine(il.version ?? 'version unknown', 80)}; bootstrap ${il.bootstrapComplete ? 'complete' : 'not complete'}; ${il.failures.length} failure line(s); ${il.operatorConditions.length} operator condition(s)`);
  }
  const gl = bundle.gatherLog;
  if (gl && (gl.noMasters || gl.errors.length > 0)) {
    out.push(`  gather: ${gl.noMasters ? 'no masters found; ' : ''}${gl.errors.length} error line(s), e.g. ${oneLine(gl.errors[0]?.text, 80)}`);
  }

  if (bundle.problems.length > 0) {
    const problems = table(['Problem', 'File', 'Message']);
    for (const p of bundle.problems) problems.push([p.kind, oneLine(p.file + (p.line ? `:${p.line}` : ''), 60), oneLine(p.message, 90)]);
    out.push('', `Could not read (${bundle.problems.length})`, problems.toString());
  } else {
    out.push('', 'Everything in the bundle was read.');
  }
  return fitWidth(out.join('\n').split('\n'), width).join('\n') + '\n';
}
