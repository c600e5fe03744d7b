// Numbers and times: a number in a log or resource never crashes a renderer, a time is
// read in the unit its size says, and lists of any length go through without a stack overflow.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyzeBundle } from '../../src/analysis/analyze.js';
import { ANALYZE_FORMATS, renderResults } from '../../src/cli/analyze-command.js';
import { readBundle } from '../../src/ingest/read-bundle.js';
import { parseLogLine } from '../../src/parsers/log-line.js';
import { loadRules } from '../../src/rules/load-rules.js';
import { epochNumberToMs } from '../../src/text/time.js';
import { maxOf, minOf, pushAll } from '../../src/util/arrays.js';
import { bundleFiles, packTar, ROOT, tempDir, writeTree } from '../support/fixture-bundle.js';

const CLI = join(process.cwd(), 'dist/src/cli/main.js');
const CRICTL_ID = 'a3f0c2d4e5b6a7980112233445566778899aabbccddeeff00112233445566778';
const ETCD_LOG = `bootstrap/containers/etcd-${CRICTL_ID}.log`;

function cli(args: string[]): { code: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', timeout: 120_000, maxBuffer: 256 * 1024 * 1024 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** The fixture bundle with some files replaced, packed as a real tar.gz. */
async function bundleWith(files: Record<string, string>): Promise<string> {
  const dir = tempDir('bootlens-numbers-');
  writeTree(dir, ROOT, { ...bundleFiles(), ...files });
  return packTar(dir, ROOT, join(dir, 'bundle.tar.gz'), true);
}

/** A bundle's cluster operators file listing `n` degraded operators. */
function degradedOperators(n: number): Record<string, string> {
  const items = Array.from({ length: n }, (_, i) => ({
    kind: 'ClusterOperator',
    metadata: { name: `op-${i}` },
    status: { conditions: [{ type: 'Degraded', status: 'True', reason: 'R', message: 'm' }] },
  }));
  return { 'resources/clusteroperators.json': JSON.stringify({ kind: 'List', items }) };
}

describe('times where they enter the model', () => {
  it('a JSON log line whose ts is 99999999999999999999 renders in every format', async () => {
    const path = await bundleWith({
      [ETCD_LOG]: [
        '{"level":"warn","ts":99999999999999999999,"caller":"etcdserver/server.go:2147","msg":"failed to publish local member to cluster through raft"}',
        '{"level":"warn","ts":1763806504.12,"caller":"rafthttp/probing_status.go:68","msg":"prober detected unhealthy status"}',
      ].join('\n') + '\n',
    });
    for (const format of ['text', 'md', 'html', 'junit', 'json']) {
      const r = cli(['analyze', path, '--format', format, '--similarity', 'off']);
      expect(r.stderr, format).not.toMatch(/Invalid time value|unexpected error|at .*\.js:\d+/);
      // 1: the fixture's failure is still diagnosed; a crash would be 2.
      expect(r.code, `${format}: ${r.stderr}`).toBe(1);
      expect(r.stdout.length, format).toBeGreaterThan(100);
    }
  });

  it('reads a numeric epoch in seconds, milliseconds, microseconds or nanoseconds by its size', () => {
    const at = Date.UTC(2026, 10, 22, 10, 15, 4, 250);
    const seconds = String(at / 1000);
    const line = (n: string) => parseLogLine(`{"level":"error","time":${n},"msg":"x"}`, 1, undefined).time;
    expect(seconds).toBe('1795342504.25');
    expect(line(seconds)).toBe(at);
    expect(line(`${at}`)).toBe(at);
    expect(line(`${at}000`)).toBe(at);
    expect(line(`${at}000000`)).toBe(at);
    // Past the year 9999 in every unit: no time, never an invalid date.
    expect(line('99999999999999999999')).toBeUndefined();
    expect(epochNumberToMs(-5)).toBeUndefined();
    expect(epochNumberToMs(Number.POSITIVE_INFINITY)).toBeUndefined();
  });

  it('a log with epoch-millisecond times keeps the gather year, and certificates are not all called expired', async () => {
    const ms = Date.UTC(2026, 10, 22, 10, 15, 4);
    const path = await bundleWith({
      [ETCD_LOG]: [
        `{"level":"info","time":${ms},"msg":"starting etcd"}`,
        `{"level":"info","time":${ms + 60_000},"msg":"serving client traffic"}`,
      ].join('\n') + '\n',
    });
    const bundle = await readBundle(path);
    const log = bundle.bootstrap?.containers.find((c) => c.name === 'etcd')?.log;
    expect(log?.firstTime).toBe(ms);
    expect(log?.lastTime).toBe(ms + 60_000);
    const json = cli(['analyze', path, '--format', 'json', '--similarity', 'off']);
    const result = JSON.parse(json.stdout) as { findings: { ruleId: string; title: string }[] };
    expect(result.findings.filter((f) => /expired/i.test(f.title) && f.ruleId === 'certificate-validity')).toEqual([]);
  });
});

describe('lists of any length', () => {
  it('pushAll, maxOf and minOf take 300k items where spreading overflows the stack', () => {
    const big = Array.from({ length: 300_000 }, (_, i) => i % 1000);
    expect(() => [].push(...(big as never[]))).toThrow(RangeError);
    expect(pushAll([-1], big, [7])).toHaveLength(300_002);
    expect(maxOf(big)).toBe(999);
    expect(minOf(big)).toBe(0);
    expect(maxOf([])).toBe(-Infinity);
    expect(minOf([3, Number.NaN])).toBeNaN();
  });

  it('250k degraded operators are read and analyzed without a stack overflow', async () => {
    const path = await bundleWith(degradedOperators(250_000));
    const bundle = await readBundle(path);
    expect(bundle.cluster?.clusterOperators).toHaveLength(250_000);
    // The rule that reads operators makes a finding per degraded one; the engine collects them.
    const rules = loadRules().rules.filter((r) => r.meta.id === 'cluster-operator-conditions');
    const result = await analyzeBundle(path, { rules, version: 'test' });
    expect(result.findings.length).toBeGreaterThanOrEqual(250_000);
    expect(result.verdict.status).toBe('failed');
  });

  it('a failure with many degraded operators renders in every format', async () => {
    const path = await bundleWith(degradedOperators(2_000));
    const result = await analyzeBundle(path, { rules: loadRules().rules, version: 'test' });
    for (const format of ANALYZE_FORMATS) {
      const out = renderResults([result], format, false, 100);
      expect(out, format).toContain('op-1999');
    }
  });
});
