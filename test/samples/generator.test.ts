// The sample generator: committed samples regenerate byte for byte, every archive holds the
// files its scenario promises (evidence lines included), expected.json speaks the taxonomy,
// and --scale grows the bundle.
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generate, type Expected } from '../../samples/generator/generate.js';
import { SCENARIOS } from '../../samples/generator/scenarios.js';
import { CATEGORIES, STAGES } from '../../src/taxonomy.js';
import { readBundle, type ReadResult } from './bundle-reader.js';

const SAMPLES = join(process.cwd(), 'samples');
let tmp: string;
const fresh = new Map<string, { archive: string; expected: Expected }>();
const read = new Map<string, ReadResult>();

beforeAll(async () => {
  tmp = mkdtempSync(join(tmpdir(), 'bootlens-samples-'));
  for (const spec of SCENARIOS) {
    const g = await generate(spec, { dir: join(tmp, spec.name), scale: 1, docs: true });
    fresh.set(spec.name, { archive: g.archive, expected: g.expected });
    read.set(spec.name, await readBundle(g.archive));
  }
}, 120_000);

afterAll(() => {
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

describe('sample scenarios', () => {
  it('has at least 16 scenarios covering every taxonomy stage, plus a healthy one', () => {
    expect(SCENARIOS.length).toBeGreaterThanOrEqual(16);
    const stages = new Set(SCENARIOS.map((s) => s.expected.stage));
    for (const st of STAGES) expect(stages.has(st), st).toBe(true);
    expect(stages.has(null)).toBe(true);
  });

  it('covers the layouts real bundles come in', () => {
    const layouts = new Set(SCENARIOS.map((s) => s.masterLayout));
    for (const l of ['folders', 'nested-bundle', 'nested-ip', 'unreachable', 'single-node'] as const) expect(layouts.has(l), l).toBe(true);
    expect(SCENARIOS.some((s) => s.truncate)).toBe(true);
    expect(SCENARIOS.some((s) => s.combined)).toBe(true);
    expect(SCENARIOS.some((s) => s.version.startsWith('4.7.'))).toBe(true);
  });
});

describe.each(SCENARIOS.map((s) => s.name))('%s', (name) => {
  it('regenerates the committed sample byte for byte', () => {
    const dir = join(SAMPLES, name);
    const f = fresh.get(name);
    expect(f).toBeDefined();
    const archiveName = f?.archive.split('/').pop() as string;
    expect(existsSync(join(dir, archiveName)), `${dir}/${archiveName} (run npm run samples)`).toBe(true);
    expect(readFileSync(join(dir, archiveName)).equals(readFileSync(f?.archive as string))).toBe(true);
    expect(readFileSync(join(dir, 'expected.json'), 'utf8')).toBe(readFileSync(join(tmp, name, 'expected.json'), 'utf8'));
    expect(readFileSync(join(dir, 'README.md'), 'utf8')).toBe(readFileSync(join(tmp, name, 'README.md'), 'utf8'));
  });

  it('has an expected.json in the taxonomy with evidence and no rules yet', () => {
    const e = JSON.parse(readFileSync(join(tmp, name, 'expected.json'), 'utf8')) as Expected;
    expect(e.scenario).toBe(name);
    if (e.stage !== null) expect(STAGES).toContain(e.stage);
    if (e.category !== null) expect(CATEGORIES).toContain(e.category);
    expect((e.stage === null) === (e.category === null)).toBe(true);
    expect(e.rules).toEqual([]);
    expect(e.evidence.length).toBeGreaterThan(0);
  });

  it('holds every evidence line and secret where expected.json says', () => {
    const r = read.get(name) as ReadResult;
    const e = fresh.get(name)?.expected as Expected;
    for (const ev of e.evidence) {
      const body = r.files.get(ev.file);
      expect(body, ev.file).toBeDefined();
      expect(body?.toString('utf8').includes(ev.contains), `${ev.file} contains ${ev.contains}`).toBe(true);
    }
    for (const sec of e.secrets) {
      expect(r.files.get(sec.file)?.toString('utf8').includes(sec.value), `${sec.file} holds the secret`).toBe(true);
    }
  });

  it('lists the files the gather scripts write', () => {
    const spec = SCENARIOS.find((s) => s.name === name);
    const r = read.get(name) as ReadResult;
    const paths = [...r.files.keys()];
    const root = paths[0].split('/')[0];
    expect(root).toMatch(/^log-bundle-\d{14}$/);
    expect(paths.every((p) => p.startsWith(`${root}/`))).toBe(true);
    if (spec?.truncate) {
      expect(r.errors.length).toBeGreaterThan(0);
      return;
    }
    expect(r.errors).toEqual([]);
    const has = (re: RegExp): boolean => paths.some((p) => re.test(p));
    for (const f of ['gather.log', 'failed-units.txt', 'bootstrap/journals/bootkube.log', 'bootstrap/journals/kubelet.log', 'bootstrap/journals/release-image.log', 'bootstrap/network/ip-addr.txt', 'bootstrap/network/resolv.conf', 'rendered-assets/openshift/tls/root-ca.crt']) {
      expect(has(new RegExp(`/${f.replace(/\./g, '\\.')}$`)), f).toBe(true);
    }
    expect(has(/\/bootstrap\/services\/release-image\.json$/)).toBe(!spec?.version.startsWith('4.7.'));
    expect(has(/rendered-assets\/.*secret/)).toBe(false);
    expect(has(/rendered-assets\/.*\.key$/)).toBe(false);
    expect(has(/rendered-assets\/.*kubeconfig/)).toBe(false);
    if (spec?.masterLayout === 'unreachable') {
      expect(paths.some((p) => /\/control-plane\/[^/]+\/journals\//.test(p))).toBe(false);
      expect(r.files.get(paths.find((p) => p.endsWith('/gather.log')) as string)?.toString()).toMatch(/ssh: connect to host .* port 22/);
    } else if (spec?.masterLayout === 'single-node') {
      expect(has(/\/log-bundle-bootstrap\/bootstrap\/services\/bootkube\.json$/)).toBe(true);
      expect(has(/\/control-plane\/master\/journals\/kubelet\.log$/)).toBe(true);
    } else {
      const nested = spec?.masterLayout === 'nested-bundle' ? /\/control-plane\/[\d.]+\/log-bundle-\d+\.tar\.gz!\/log-bundle-\d+\/journals\/kubelet\.log$/ : spec?.masterLayout === 'nested-ip' ? /\/control-plane\/[\d.]+\.tar\.gz!\/journals\/kubelet\.log$/ : /\/control-plane\/[\d.]+\/journals\/kubelet\.log$/;
      expect(paths.filter((p) => nested.test(p)).length).toBe(spec?.hosts.masters.length);
    }
  });
});

describe('journals', () => {
  it('use the short format, with -- No entries -- for empty units', () => {
    const r = read.get('release-pull-secret-rejected') as ReadResult;
    const get = (end: string): string => [...r.files.entries()].find(([p]) => p.endsWith(end))?.[1].toString('utf8') ?? '';
    expect(get('/bootstrap/journals/bootkube.log')).toBe('-- No entries --\n');
    expect(get('/bootstrap/journals/ironic.log')).toBe('-- No entries --\n');
    expect(get('/bootstrap/journals/release-image.log')).toMatch(/^[A-Z][a-z]{2} \d{2} \d{2}:\d{2}:\d{2} ip-10-0-24-117 systemd\[1\]: Starting release-image\.service/);
  });

  it('carry the old header on older releases and boot separators across reboots', () => {
    const legacy = read.get('legacy-etcd-slow-disk') as ReadResult;
    const bootkube = [...legacy.files.entries()].find(([p]) => p.endsWith('/bootstrap/journals/bootkube.log'))?.[1].toString('utf8') ?? '';
    expect(bootkube.split('\n')[0]).toMatch(/^-- Logs begin at \w{3} \d{4}-\d{2}-\d{2} [\d:]{8} UTC, end at .* UTC\. --$/);
    const okd = read.get('okd-crio-opt-cni') as ReadResult;
    const crio = [...okd.files.entries()].find(([p]) => p.endsWith('/unit-status/crio.service.log'))?.[1].toString('utf8') ?? '';
    expect(crio).toMatch(/^-- Boot [0-9a-f]{32} --$/m);
  });
});

describe('--scale', () => {
  it('grows the journals with the scale factor', async () => {
    const spec = SCENARIOS.find((s) => s.name === 'masters-image-pull-timeout');
    if (!spec) throw new Error('scenario missing');
    const small = await generate(spec, { dir: join(tmp, 'scale-1'), scale: 1, docs: false });
    const big = await generate(spec, { dir: join(tmp, 'scale-6'), scale: 6, docs: false });
    expect(statSync(big.archive).size).toBeGreaterThan(statSync(small.archive).size * 2);
    const r = await readBundle(big.archive);
    expect(r.errors).toEqual([]);
  }, 120_000);
});
