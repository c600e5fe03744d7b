import { describe, expect, it } from 'vitest';
import { readBundle } from '../../src/ingest/read-bundle.js';
import { loadRules } from '../../src/rules/load-rules.js';
import { bundleLogs } from '../../src/model/walk.js';
import { logRefOf } from '../../src/specs/layout.js';
import type { LogRef } from '../../src/model/source-id.js';
import { createMiner, skeletonKey, skeletonKeyOfBytes } from '../../src/similarity/drain.js';
import { JournalCollector } from '../../src/ingest/journal-collector.js';
import { ActiveFilters } from '../../src/ingest/line-filter.js';
import { DEFAULT_LOG_LIMITS } from '../../src/ingest/log-collector.js';
import { LogStream } from '../../src/ingest/log-stream.js';
import { join } from 'node:path';
import { bundleFiles, packTar, ROOT, tempDir, writeTree } from '../support/fixture-bundle.js';

const kubelet = (ip: string): LogRef => (logRefOf(`${ROOT}/control-plane/${ip}/journals/kubelet.log`) as LogRef);

function registerLine(time: string, host: string, ip: string, pid: number): string {
  return `Nov 22 ${time} ${host} kubelet.sh[${pid}]: E1122 ${time}.001122    ${pid} kubelet_node_status.go:96] "Unable to register node with API server" err="Post \\"https://api-int.ocp4.example.com:6443/api/v1/nodes\\": dial tcp ${ip}:6443: connect: connection refused" node="${host}"`;
}

describe('template miner', () => {
  it('folds one failure on three hosts, with other addresses and times, into one template', () => {
    const miner = createMiner();
    const masters: [string, string][] = [
      ['10.0.0.5', 'master-0.ocp4.example.com'],
      ['10.0.0.6', 'master-1.ocp4.example.com'],
      ['10.0.0.7', 'master-2.ocp4.example.com'],
    ];
    masters.forEach(([ip, host], i) => {
      miner.observe(kubelet(ip), [
        `Nov 22 10:13:42 ${host} systemd[1]: Started Kubernetes Kubelet.`,
        registerLine(`10:1${5 + i}:20`, host, ip, 2519 + i),
        registerLine(`10:2${i}:31`, host, ip, 2519 + i),
        `Nov 22 10:3${i}:00 ${host} kubelet.sh[${2519 + i}]: I1122 10:3${i}:00.000001    ${2519 + i} kubelet.go:2400] "SyncLoop (PLEG): event for pod"`,
      ]);
    });
    const templates = miner.templates();
    const register = templates.filter((t) => t.template.includes('Unable to register node'));
    expect(register).toHaveLength(1);
    const t = register[0];
    expect(t.template).toBe('"Unable to register node with API server" err="Post \\"https://<HOST>/api/v1/nodes\\": dial tcp <IP>: connect: connection refused" node="<HOST>"');
    expect(t.count).toBe(6);
    expect(t.hosts).toEqual(['10.0.0.5', '10.0.0.6', '10.0.0.7']);
    expect(t.sources).toEqual(['kubelet']);
    expect(t.level).toBe('error');
    expect(t.errorWeight).toBe(1);
    expect(new Date(t.firstTime ?? 0).toISOString()).toBe('2026-11-22T10:15:20.000Z');
    expect(new Date(t.lastTime ?? 0).toISOString()).toBe('2026-11-22T10:22:31.000Z');
    expect(t.example).toEqual({ file: `${ROOT}/control-plane/10.0.0.5/journals/kubelet.log`, line: 2, text: registerLine('10:15:20', 'master-0.ocp4.example.com', '10.0.0.5', 2519) });
    expect(templates.map((x) => x.template)).toContain('Started Kubernetes Kubelet.');
    expect(miner.stats()).toMatchObject({ lines: 12, overflow: 0, files: 3 });
  });

  it('merges lines that differ in a word into a template with a wildcard', () => {
    const miner = createMiner();
    miner.observe(kubelet('10.0.0.5'), [
      'Nov 22 10:15:04 h bootkube.sh[1]: Pod Status: openshift-kube-apiserver/kube-apiserver RunningNotReady',
      'Nov 22 10:15:09 h bootkube.sh[1]: Pod Status: openshift-kube-scheduler/openshift-kube-scheduler Ready',
    ]);
    expect(miner.templates().map((t) => t.template)).toEqual(['Pod Status: <*> <*>']);
  });

  it('keys lines by their skeleton: numbers and ids do not count, words do', () => {
    expect(skeletonKey('dial tcp 10.0.0.5:6443: i/o timeout after 3s')).toBe(skeletonKey('dial tcp 192.168.1.20:6443: i/o timeout after 30s'));
    expect(skeletonKey('container a3f0c2d4e5b6 exited')).toBe(skeletonKey('container 0d2ae0d0b8b1 exited'));
    expect(skeletonKey('dial tcp 10.0.0.5:6443: i/o timeout')).not.toBe(skeletonKey('dial tcp 10.0.0.5:6443: connection refused'));
  });

  it('proposes error-like templates new near the failure, persisting ones first', () => {
    const miner = createMiner();
    const t: LogRef = logRefOf(`${ROOT}/bootstrap/journals/bootkube.log`) as LogRef;
    const lines = ['Nov 22 08:00:00 b bootkube.sh[9]: error: early hiccup, healed', 'Nov 22 08:00:05 b bootkube.sh[9]: Starting etcd...'];
    for (let m = 10; m < 60; m++) lines.push(`Nov 22 10:${m}:00 b bootkube.sh[9]: Waiting for etcd cluster...`);
    lines.push('Nov 22 10:20:00 b bootkube.sh[9]: error: transient hiccup near the end');
    for (let m = 30; m < 60; m++) lines.push(`Nov 22 10:${m}:30 b bootkube.sh[9]: etcdctl failed. Retrying in 5 seconds...`);
    miner.observe(t, lines);
    const c = miner.candidates({ windowMs: 60 * 60_000 });
    expect(c.map((x) => x.template)).toEqual(['etcdctl failed. Retrying in <NUM> seconds...', 'error: transient hiccup near the end']);
    expect(c[0].persisting).toBe(true);
    expect(c[1].persisting).toBe(false);
    expect(c[0].score).toBeGreaterThan(c[1].score);
    // With the failure time given, only what started before it within the window counts.
    expect(miner.candidates({ failureTime: Date.UTC(2026, 10, 22, 10, 35), windowMs: 10 * 60_000 }).map((x) => x.template)).toEqual([
      'etcdctl failed. Retrying in <NUM> seconds...',
    ]);
  });

  it('mines every streamed log through readBundle, once per line', async () => {
    const dir = writeTree(tempDir(), ROOT, bundleFiles());
    const miner = createMiner();
    await readBundle(dir, { observeLines: miner.observer });
    const etcdctl = miner.templates().find((t) => t.template === 'etcdctl failed. Retrying in <NUM> seconds...');
    // The unit-status copy of the bootkube journal is not mined twice.
    expect(etcdctl).toMatchObject({ count: 2, hosts: ['bootstrap'], sources: ['bootkube'] });
    expect(etcdctl?.example.file).toBe(`${ROOT}/bootstrap/journals/bootkube.log`);
    const refused = miner.templates().find((t) => t.template.startsWith('"Unable to register node'));
    expect(refused?.hosts).toEqual(['10.0.0.5', '10.0.0.6', '10.0.0.7', 'bootstrap']);
    expect(miner.candidates().map((c) => c.template)).toContain('etcdctl failed. Retrying in <NUM> seconds...');
  });

  it('sees error-word lines through its tap while the reader keeps exactly what it keeps without it', async () => {
    // A tar.gz whose kubelet journal mixes error-word lines (only the tap wants them) with
    // lines a rule filter wants, so tap-only lines sit next to kept ones and their context.
    const files = bundleFiles();
    const journal = `${ROOT}/bootstrap/journals/kubelet.log`;
    const body: string[] = [];
    for (let i = 0; i < 400; i++) {
      const s = String(i % 60).padStart(2, '0');
      body.push(
        i % 7 === 3
          ? `Nov 22 10:${s}:${s} bootstrap kubelet.sh[2519]: E1122 10:${s}:${s}.1    2519 reflector.go:138] failed to list *v1.Node: connection refused (try ${i})`
          : `Nov 22 10:${s}:${s} bootstrap kubelet.sh[2519]: I1122 10:${s}:${s}.1    2519 kubelet.go:2400] "SyncLoop (probe)" probe="readiness" n=${i}`,
      );
    }
    files[journal.slice(ROOT.length + 1)] = body.join('\n') + '\n';
    const dir = tempDir();
    writeTree(dir, ROOT, files);
    const archive = await packTar(dir, ROOT, join(dir, 'bundle.tar.gz'), true);
    // The rules' filters too: kept lines, their context and the tap's lines interleave.
    const filters = loadRules().rules.flatMap((r) => r.filters);
    const plain = await readBundle(archive, { filters });
    const miner = createMiner();
    const tapped = await readBundle(archive, { filters, observeLines: miner.tap });
    expect(JSON.stringify(tapped)).toBe(JSON.stringify(plain));
    const kubelet = bundleLogs(plain).find((l) => l.source.file === journal);
    expect(kubelet?.lineCount).toBe(body.length);
    const failed = miner.templates().find((t) => t.template.startsWith('failed to list'));
    expect(failed?.count).toBe(body.filter((l) => l.includes('failed to list')).length);
    expect(failed?.last.line).toBe(body.map((l) => l.includes('failed to list')).lastIndexOf(true) + 1);
  });

  it('stays within its template cap and flat memory over a million-line journal', () => {
    const miner = createMiner({ maxClusters: 2000 });
    const observe = miner.observer(logRefOf(`${ROOT}/bootstrap/journals/kubelet.log`) as LogRef);
    if (!observe) throw new Error('journals are mined');
    // Words made of letters only: masking leaves them, so each such line is a new shape.
    const letters = (k: number): string => {
      let w = '';
      for (let x = k; x > 0; x = Math.floor(x / 26)) w += String.fromCharCode(97 + (x % 26));
      return w || 'a';
    };
    const heapBefore = process.memoryUsage().heapUsed;
    const n = 1_000_000;
    for (let i = 1; i <= n; i++) {
      const s = String(i % 60).padStart(2, '0');
      const ip = `10.${i % 200}.${(i >> 8) % 250}.${i % 250}`;
      let line: string;
      if (i % 50 === 0) {
        // Lines of ever-new words: the shapes the cap exists for.
        line = `Nov 22 10:${s}:${s} bootstrap kubelet.sh[2519]: ${letters(i)} ${letters(i * 7919)}`;
      } else if (i % 3 === 0) {
        line = `Nov 22 10:${s}:${s} bootstrap kubelet.sh[2519]: E1122 10:${s}:${s}.001122    2519 kubelet.go:2400] "Error syncing pod" err="dial tcp ${ip}:6443: i/o timeout" pod="openshift-etcd/etcd-${i % 7}"`;
      } else {
        line = `Nov 22 10:${s}:${s} bootstrap kubelet.sh[2519]: I1122 10:${s}:${s}.5    2519 prober.go:107] "Probe failed" probeType="Readiness" podUID=${(i * 2654435761 >>> 0).toString(16)}-aaaa-bbbb-cccc-dddddddddddd output="Get \\"https://${ip}:6443/readyz\\": context deadline exceeded"`;
      }
      observe(line, i);
    }
    const stats = miner.stats();
    expect(stats.lines).toBe(n);
    expect(stats.templates).toBeLessThanOrEqual(2000);
    expect(stats.overflow).toBeGreaterThan(0);
    const templates = miner.templates();
    expect(templates.find((t) => t.template.includes('"Error syncing pod"'))?.count).toBe(Math.floor(n / 3) - Math.floor(n / 150));
    // Templates are few and small: the heap holds the cap, not the lines.
    expect(process.memoryUsage().heapUsed - heapBefore).toBeLessThan(64 * 1024 * 1024);
  });
});

describe('template miner reading bytes', () => {
  // The same journal through the reader's scan twice: the miner's tap as it is (ASCII lines of
  // known templates are counted from their bytes) and the same tap with text only. Every
  // template, count, time and place must be the same.
  function mined(text: string, bytes: boolean, maxLineLength = 4096) {
    const miner = createMiner();
    const ref = kubelet('10.0.0.5');
    const tap = miner.tap(ref);
    if (!tap) throw new Error('kubelet journals are mined');
    const filters = new ActiveFilters([], ref.source);
    const collector = new JournalCollector({ file: ref.file }, ref.source, filters, DEFAULT_LOG_LIMITS, Date.UTC(2026, 10, 22, 12));
    const stream = new LogStream(collector, maxLineLength, [bytes ? tap : { literals: tap.literals, observe: tap.observe }]);
    const all = Buffer.from(text);
    for (let i = 0; i < all.length; i += 4093) stream.push(all.subarray(i, i + 4093));
    stream.end();
    const summary = collector.journal();
    miner.noteFileEnd(ref.file, summary.lineCount, summary.lastTime);
    return { templates: miner.templates(), candidates: miner.candidates(), stats: miner.stats() };
  }

  function journal(): string {
    const lines: string[] = ['-- Logs begin at Sun 2026-11-22 10:00:00 UTC, end at Sun 2026-11-22 11:59:59 UTC. --'];
    for (let i = 0; i < 3000; i++) {
      const s = String(i % 60).padStart(2, '0');
      const m = String(10 + Math.floor(i / 60) % 50).padStart(2, '0');
      const at = `Nov 22 11:${m}:${s}`;
      // Several lines a second: error-like templates take the time of the line before.
      // Busy seconds: the same templates several times a second, to the end of the journal.
      for (let k = 0; k < 3; k++) lines.push(registerLine(`11:${m}:${s}`, 'master-0.ocp4.example.com', `10.0.${(i + k) % 5}.5`, 2519));
      for (let k = 0; k < 2; k++) lines.push(`${at} master-0 kubelet.sh[2519]: W1122 11:${m}:${s}.3 2519 lease.go:${k}] attempt ${i} to update the node lease`);
      if (i % 11 === 0) lines.push(`${at} master-0 kubelet.sh[2519]: E1122 11:${m}:${s}.5 2519 pod_workers.go:1298] "Error syncing pod, skipping" err="failed to \\"StartContainer\\" for \\"etcd\\" with CrashLoopBackOff" pod="openshift-etcd/etcd-${i % 3}"`);
      if (i % 13 === 0) lines.push(`${at} master-0 kubelet.sh[2519]: E1122 11:${m}:${s}.7 2519 remote_image.go:180] "PullImage from image service failed" err="rpc error: code = Unknown desc = unable to pull quay.io/openshift-release-dev/ocp-v4.0-art-dev@sha256:${(i * 2654435761 >>> 0).toString(16)}: pinging container registry quay.io: Get \\"https://quay.io/v2/\\": dial tcp: i/o timeout"\r`);
      if (i % 17 === 0) lines.push(`${at} master-0 kubelet.sh[2519]: W1122 11:${m}:${s}.9 2519 reflector.go:424] failed to list *v1.Node: Get "https://api-int.ocp4.example.com:6443/api/v1/nodes": x509: certificate signed by unknown authority (possibly because of "crypto/rsa: verification error" while trying to verify candidate authority certificate "kube-apiserver-lb-signer")`);
      if (i % 19 === 0) lines.push(`${at} master-0 kubelet.sh[2519]: E1122 11:${m}:${s}.1 2519 kubelet.go:2411] "Error getting node" err="node \\"master-0\\" not found" région="eu-ouest-${i % 4}"`);
      if (i % 23 === 0) lines.push('');
      if (i === 1500) lines.push('-- Boot 0f1e2d3c4b5a69788796a5b4c3d2e1f0 --');
      if (i % 29 === 0) lines.push(`${at} master-0 kubelet.sh[2519]: E1122 failed ${'x'.repeat(300 + i)} tail`);
      lines.push(`${at} master-0 kubelet.sh[2519]: I1122 11:${m}:${s}.0 2519 kubelet.go:1800] "SyncLoop RECONCILE" source="api"`);
    }
    return lines.join('\n') + '\n';
  }

  it('mines what it mines from the text: templates, counts, times, candidates', () => {
    const text = journal();
    const fromBytes = mined(text, true);
    expect(fromBytes.stats.lines).toBeGreaterThan(1000);
    expect(fromBytes).toEqual(mined(text, false));
    // Lines cut at a short length limit are mined from their text, cut the same way.
    expect(mined(text, true, 200)).toEqual(mined(text, false, 200));
  });

  it('keys a line from its bytes exactly as from its text, past ASCII too; a journal line from its message on', () => {
    for (const line of ['xx I1122 kubelet.go:96] "Unable to register node" err="dial tcp 10.0.0.5:6443: refused"', 'région eu-ouest-3: "Error getting node" 节点 node-7 未找到']) {
      const bytes = Buffer.from(line);
      expect(skeletonKeyOfBytes(bytes, 0, bytes.length)).toBe(skeletonKey(line));
    }
    const a = 'Nov 22 10:15:04 master-0 kubelet.sh[2519]: "Error syncing pod" pod="etcd-0"';
    const b = 'Nov 23 11:16:05 master-1.example.com kubelet[77]: "Error syncing pod" pod="etcd-1"';
    expect(skeletonKey(a, true)).toBe(skeletonKey(b, true));
    expect(skeletonKey(a, true)).not.toBe(skeletonKey(a.replace('syncing', 'killing'), true));
    expect(skeletonKey(a)).not.toBe(skeletonKey(b));
  });
});

describe('template miner sparing the middle of a long log', () => {
  // A 24 MiB journal of a few repeating error lines, with one line of a kind nowhere else in its
  // middle (4.5 MiB in) and another near its end (20 MiB in): the miner is saturated after a
  // few thousand lines with nothing new, so the reader spares it the middle (but one MiB in
  // eight) and never the last 16 MiB.
  const MiB = 1024 * 1024;
  function bigJournal(): string {
    const parts: string[] = [];
    let bytes = 0;
    let i = 0;
    let middle = false;
    let end = false;
    while (bytes < 24 * MiB) {
      const s = String(i % 60).padStart(2, '0');
      let line = `Nov 22 11:${String(Math.floor(i / 60) % 60).padStart(2, '0')}:${s} master-0 kubelet.sh[2519]: E1122 ${i} pod_workers.go:1298] "Error syncing pod" pod="etcd-${i % 3}"`;
      if (!middle && bytes > 4.5 * MiB) {
        middle = true;
        line = `Nov 22 11:00:00 master-0 kubelet.sh[2519]: E1122 1 kuberuntime.go:77] "Failed to mount volume" volume="secret-a"`;
      } else if (!end && bytes > 20 * MiB) {
        end = true;
        line = `Nov 22 11:00:00 master-0 kubelet.sh[2519]: E1122 1 kubelet.go:2411] "Error getting node" err="node not found"`;
      }
      parts.push(line);
      bytes += line.length + 1;
      i++;
    }
    return parts.join('\n') + '\n';
  }

  function mine(text: string, size: number | undefined): { templates: string[]; count: number } {
    const kinds = ['Error getting node', 'Error syncing pod', 'Failed to mount volume'];
    const miner = createMiner();
    const ref = kubelet('10.0.0.5');
    const tap = miner.tap(ref);
    if (!tap) throw new Error('kubelet journals are mined');
    const collector = new JournalCollector({ file: ref.file }, ref.source, new ActiveFilters([], ref.source), DEFAULT_LOG_LIMITS, Date.UTC(2026, 10, 22, 12));
    const stream = new LogStream(collector, 4096, [tap], size);
    const all = Buffer.from(text);
    for (let i = 0; i < all.length; i += 64 * 1024) stream.push(all.subarray(i, i + 64 * 1024));
    stream.end();
    const templates = miner.templates();
    return { templates: kinds.filter((k) => templates.some((t) => t.template.includes(k))), count: templates.reduce((n, t) => n + t.count, 0) };
  }

  it('mines the head, samples and the end of a long log, and all of it when its size is not known', () => {
    const text = bigJournal();
    const size = Buffer.byteLength(text);
    const spared = mine(text, size);
    const whole = mine(text, undefined);
    expect(whole.templates).toEqual(['Error getting node', 'Error syncing pod', 'Failed to mount volume']);
    // The line of a kind in the spared middle is not seen; the one near the end is.
    expect(spared.templates).toEqual(['Error getting node', 'Error syncing pod']);
    // Most of the middle was spared: fewer lines counted, the end (16 of 24 MiB) all counted.
    expect(spared.count).toBeLessThan(whole.count * 0.85);
    expect(spared.count).toBeGreaterThan(whole.count * 0.6);
  });

  it('is saturated only after thousands of lines that start nothing new', () => {
    const miner = createMiner();
    const tap = miner.tap(kubelet('10.0.0.6'));
    if (!tap?.saturated) throw new Error('the miner tap says when it is saturated');
    const line = (n: number, what: string): string => `Nov 22 11:00:00 master-1 kubelet.sh[2519]: E1122 ${n} x.go:1] "${what}" n=${n}`;
    // The first line starts a template; 2,000 more start nothing.
    for (let n = 1; n <= 2000; n++) tap.observe(line(n, 'Error syncing pod'), n);
    expect(tap.saturated()).toBe(false);
    tap.observe(line(2001, 'Error syncing pod'), 2001);
    expect(tap.saturated()).toBe(true);
    // A line that starts a template makes it read on.
    tap.observe(line(2002, 'Failed to pull image'), 2002);
    expect(tap.saturated()).toBe(false);
  });
});
