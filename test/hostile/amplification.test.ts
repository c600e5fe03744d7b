// A bundle cannot take more than its share: YAML is refused when its aliases (whatever their
// names) make it larger than the limits once followed, JSON when it holds too many values, and the
// walks over a bundle's logs and containers are linear in them.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { jsonShape, structuredRefusal, yamlAliasCount, DEFAULT_STRUCTURED_LIMITS } from '../../src/ingest/structured-limits.js';
import { readBundle } from '../../src/ingest/read-bundle.js';
import type { Bundle } from '../../src/model/types.js';
import { loadYamlStream, YamlError } from '../../src/parsers/yaml-document.js';
import { lastErrorRule } from '../../src/rules/builtin/last-error.js';
import { contextFor } from '../../src/rules/engine.js';
import { buildTimeline } from '../../src/timeline/build-timeline.js';
import { bundleFiles, ROOT, tempDir, writeTree } from '../support/fixture-bundle.js';
import { aliasBombManifest, manifestBundle, manyContainersBundle } from './crafted-bundles.js';

const CLI = join(process.cwd(), 'dist/src/cli/main.js');

function run(args: string[]): { status: number | null; stdout: string; stderr: string } {
  return spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', timeout: 120_000, maxBuffer: 64 * 1024 * 1024 });
}

describe('YAML aliases', () => {
  it('are counted whatever their names', () => {
    expect(yamlAliasCount('a: &$m [1]\nb: [*$m, *$m]\nc: *ä\nd: *1\n')).toBe(4);
    expect(yamlAliasCount('cmd: ls a*b\nglob: "*"\n')).toBe(0);
    const manifest = aliasBombManifest('$m', 70);
    expect(structuredRefusal('yaml', manifest, DEFAULT_STRUCTURED_LIMITS)).toBe(`YAML with 70 aliases (limit ${DEFAULT_STRUCTURED_LIMITS.maxYamlAliases}): not parsed`);
  });

  it('followed, may not make a document larger than the limits: bytes, nodes, or a cycle', () => {
    const limits = { maxBytes: 4 * 1024 * 1024, maxNodes: 100_000 };
    // 200 KB of arguments in one container, repeated by 60 aliases: 12 MB once the model copies them.
    expect(() => loadYamlStream(aliasBombManifest('c', 60), limits)).toThrow(/larger than 4194304 bytes once aliases are followed/);
    expect(loadYamlStream(aliasBombManifest('c', 2), limits)).toHaveLength(1);
    // 1000 tiny scalars, 16 × 15 times: small in bytes, 240 000 nodes.
    const nodes = `seed: &s [${Array(1000).fill('a').join(', ')}]\nmid: &m [${Array(16).fill('*s').join(', ')}]\nout: [${Array(15).fill('*m').join(', ')}]\n`;
    expect(() => loadYamlStream(nodes, limits)).toThrow(/more than 100000 nodes once aliases are followed/);
    expect(() => loadYamlStream('a: &x [1, *x]\n', limits)).toThrow(YamlError);
  });

  it('in a bundle: the manifest is a limit problem and the rest is analyzed; inspect stays small', () => {
    const bundle = manifestBundle(tempDir('bootlens-yaml-bomb-'), aliasBombManifest('c', 63));
    const analyze = run(['analyze', bundle, '-f', 'json']);
    expect(analyze.status).toBe(1);
    const report = JSON.parse(analyze.stdout) as { verdict: { stage: string }; problems: { kind: string; message: string }[] };
    expect(report.verdict.stage).toBe('bootstrap-etcd');
    expect(report.problems).toContainEqual(expect.objectContaining({ kind: 'limit', message: expect.stringMatching(/^YAML not parsed: larger than 4194304 bytes once aliases are followed/) }));
    const inspect = run(['inspect', bundle, '-f', 'json']);
    expect(inspect.status).toBe(0);
    // The manifest itself is 200 KB; the aliases, followed, made 13 MB of JSON.
    expect(inspect.stdout.length).toBeLessThan(1024 * 1024);
  });
});

describe('JSON values', () => {
  it('are counted before parsing, and too many is a limit problem', async () => {
    // Six values, one of them an empty object, counted as two.
    expect(jsonShape('[{"a":[1,2]},{}]')).toEqual({ depth: 3, nodes: 7 });
    expect(jsonShape('{"a,b":"[{,"}')).toEqual({ depth: 1, nodes: 2 });
    const many = `[${Array(4_100_000).fill('{}').join(',')}]`;
    expect(structuredRefusal('json', many, DEFAULT_STRUCTURED_LIMITS)).toBe('JSON with more than 8000000 values: not parsed');
    const root = tempDir('bootlens-json-bomb-');
    const bundle = writeTree(root, ROOT, { ...bundleFiles(), 'bootstrap/services/bootkube.json': many });
    const read = await readBundle(bundle);
    expect(read.problems).toContainEqual(expect.objectContaining({ kind: 'limit', message: 'JSON with more than 8000000 values: not parsed' }));
    expect(read.bootstrap?.journals.bootkube).toBeDefined();
  });
});

/** A view of `list` that counts every read of one of its items. */
function counting<T>(list: readonly T[]): { list: T[]; reads: () => number } {
  let reads = 0;
  const view = new Proxy(list as T[], {
    get(target, key, receiver) {
      if (typeof key === 'string' && /^\d+$/.test(key)) reads++;
      return Reflect.get(target, key, receiver) as unknown;
    },
  });
  return { list: view, reads: () => reads };
}

describe('walks over containers', () => {
  it('the generic reading looks a log\'s container up once per host, not with a search per log', async () => {
    const files: Record<string, string> = { ...bundleFiles() };
    const count = 1000;
    for (let i = 0; i < count; i++) files[`bootstrap/containers/c${i}-${i.toString(16).padStart(12, '0')}.log`] = `c${i}: error: exit status 1\n`;
    const bundle = await readBundle(writeTree(tempDir('bootlens-containers-'), ROOT, files));
    const host = bundle.bootstrap as NonNullable<Bundle['bootstrap']>;
    expect(host.containers.length).toBeGreaterThanOrEqual(count);
    const containers = counting(host.containers);
    const counted: Bundle = { ...bundle, bootstrap: { ...host, containers: containers.list } };
    const findings = lastErrorRule.check(contextFor(lastErrorRule, counted, buildTimeline(counted)));
    expect(Array.isArray(findings) ? findings.length : 0).toBeGreaterThan(0);
    // A search per log read about count² / 2 = 500 000 items.
    expect(containers.reads()).toBeLessThan(10 * count);
  });

  it('the generic reading finds a log\'s host once per bundle, not with a search of all hosts per log', async () => {
    const files: Record<string, string> = { ...bundleFiles() };
    const count = 500;
    for (let i = 0; i < count; i++) files[`control-plane/10.1.${i >> 8}.${i & 255}/journals/kubelet.log`] = `Nov 22 10:20:00 m${i} kubelet.sh[1]: E1122 10:20:00.000000 1 kubelet.go:1] "x" err="connection refused"\n`;
    const bundle = await readBundle(writeTree(tempDir('bootlens-hosts-'), ROOT, files));
    expect(bundle.masters.length).toBeGreaterThanOrEqual(count);
    const masters = counting(bundle.masters);
    const counted: Bundle = { ...bundle, masters: masters.list };
    lastErrorRule.check(contextFor(lastErrorRule, counted, buildTimeline(counted)));
    // The rule walks the logs of every host a few times; a search per log read count² = 250 000.
    expect(masters.reads()).toBeLessThan(50 * count);
  });
});
