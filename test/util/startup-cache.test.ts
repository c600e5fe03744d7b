import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { defaultRulesDir, loadRules } from '../../src/rules/load-rules.js';
import { RuleError } from '../../src/rules/yaml-rule.js';
import { tempDir } from '../support/fixture-bundle.js';

describe('start-up cache', () => {
  let cache: string;
  const before = process.env.BOOTLENS_CACHE_DIR;
  beforeEach(() => {
    cache = tempDir('bootlens-cache-');
    process.env.BOOTLENS_CACHE_DIR = cache;
  });
  afterEach(() => {
    if (before === undefined) delete process.env.BOOTLENS_CACHE_DIR;
    else process.env.BOOTLENS_CACHE_DIR = before;
  });

  it('loads the same rules from the cache as from the files, and a changed file is read again', () => {
    const dir = join(tempDir(), 'rules');
    cpSync(defaultRulesDir(), dir, { recursive: true });
    const cold = loadRules(dir);
    expect(readdirSync(cache).filter((n) => n.startsWith('rules-'))).toHaveLength(1);
    const warm = loadRules(dir);
    expect(JSON.stringify([...warm.docs])).toBe(JSON.stringify([...cold.docs]));
    expect(warm.rules.map((r) => r.meta.id)).toEqual(cold.rules.map((r) => r.meta.id));
    // An edit is a new key, never a stale hit.
    const file = join(dir, 'workers', 'workers-none-ready.yaml');
    const text = readFileSync(file, 'utf8');
    writeFileSync(file, text.replace(/^confidence: .*$/m, 'confidence: low'));
    expect(loadRules(dir).docs.get('workers-none-ready')?.confidence).toBe('low');
    // A broken file fails the load though a good set of the same files is cached.
    writeFileSync(file, text.replace(/^confidence: .*$/m, 'confidence: no-such-level'));
    expect(() => loadRules(dir)).toThrow(RuleError);
    expect(() => loadRules(dir)).toThrow(/confidence: 'no-such-level' is not one of high, medium, low/);
  });

  it('validates with the cached schema code as with a fresh compile', async () => {
    const bad = { id: 'x', title: 't', unknownField: 1 };
    vi.resetModules();
    const fresh = (await import('../../src/util/schema.js')).schemaValidator('rule.schema.json');
    expect(fresh(bad)).toBe(false);
    const freshErrors = JSON.stringify(fresh.errors);
    expect(readdirSync(cache).filter((n) => n.startsWith('schema-'))).toHaveLength(1);
    vi.resetModules();
    const cached = (await import('../../src/util/schema.js')).schemaValidator('rule.schema.json');
    expect(cached).not.toBe(fresh);
    expect(cached(bad)).toBe(false);
    expect(JSON.stringify(cached.errors)).toBe(freshErrors);
    const good = loadRules().docs.get('workers-none-ready');
    expect(cached(JSON.parse(JSON.stringify(good)))).toBe(true);
  });

  it('uses no cache when BOOTLENS_CACHE_DIR is off', () => {
    process.env.BOOTLENS_CACHE_DIR = 'off';
    loadRules();
    expect(readdirSync(cache)).toEqual([]);
  });
});

describe('a cache folder that cannot be made', () => {
  // Node's recursive mkdir spins forever below /proc: the cache makes its folders one by one.
  it.runIf(existsSync('/proc/self'))('costs nothing but the cache: a run with BOOTLENS_CACHE_DIR below /proc ends with its verdict', () => {
    const cli = join(process.cwd(), 'dist/src/cli/main.js');
    const sample = join(process.cwd(), 'samples/workers-csr-pending');
    const r = spawnSync(process.execPath, [cli, 'analyze', sample, '-f', 'json'], { encoding: 'utf8', timeout: 60_000, env: { ...process.env, BOOTLENS_CACHE_DIR: '/proc/bootlens-cache' } });
    expect(r.error).toBeUndefined();
    expect(r.status).toBe(1);
    expect(JSON.parse(r.stdout).verdict.stage).toBe('workers');
  });
});
