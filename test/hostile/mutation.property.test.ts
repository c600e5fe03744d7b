// Property: whatever random damage is done to a real bundle's bytes, analyze never throws
// (only a clear InputError for input that is no bundle at all) and stays within its limits.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { analyzeModel } from '../../src/analysis/analyze.js';
import { InputError } from '../../src/archive/walk-bundle.js';
import { readBundle } from '../../src/ingest/read-bundle.js';
import { BUILTIN_RULES } from '../../src/rules/registry.js';
import { TIMELINE_FILTERS } from '../../src/timeline/build-timeline.js';
import { bundleFiles, packTar, ROOT, tempDir, writeTree } from '../support/fixture-bundle.js';

type Mutation = { kind: 'flip'; at: number; value: number } | { kind: 'cut'; at: number } | { kind: 'splice'; at: number; bytes: number[] } | { kind: 'zero'; at: number; length: number };

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ kind: fc.constant('flip' as const), at: fc.double({ min: 0, max: 1, noNaN: true }).map((x) => x), value: fc.integer({ min: 0, max: 255 }) }) as fc.Arbitrary<Mutation>,
  fc.record({ kind: fc.constant('cut' as const), at: fc.double({ min: 0, max: 1, noNaN: true }) }) as fc.Arbitrary<Mutation>,
  fc.record({ kind: fc.constant('splice' as const), at: fc.double({ min: 0, max: 1, noNaN: true }), bytes: fc.array(fc.integer({ min: 0, max: 255 }), { maxLength: 64 }) }) as fc.Arbitrary<Mutation>,
  fc.record({ kind: fc.constant('zero' as const), at: fc.double({ min: 0, max: 1, noNaN: true }), length: fc.integer({ min: 1, max: 4096 }) }) as fc.Arbitrary<Mutation>,
);

function apply(bytes: Buffer, mutations: Mutation[]): Buffer {
  let out = Buffer.from(bytes);
  for (const m of mutations) {
    const at = Math.floor((m.at as number) * out.length);
    if (m.kind === 'flip' && out.length > 0) out[Math.min(at, out.length - 1)] = m.value;
    if (m.kind === 'cut') out = out.subarray(0, at);
    if (m.kind === 'splice') out = Buffer.concat([out.subarray(0, at), Buffer.from(m.bytes), out.subarray(at)]);
    if (m.kind === 'zero') out.fill(0, at, Math.min(out.length, at + m.length));
  }
  return out;
}

let gz: Buffer;
let tar: Buffer;
beforeAll(async () => {
  const dir = tempDir();
  writeTree(dir, ROOT, bundleFiles());
  gz = readFileSync(await packTar(dir, ROOT, join(dir, 'b.tar.gz'), true));
  tar = readFileSync(await packTar(dir, ROOT, join(dir, 'b.tar'), false));
});

async function survives(bytes: Buffer): Promise<void> {
  const path = join(tempDir('bootlens-mut-'), 'mutated.bin');
  writeFileSync(path, bytes);
  const filters = [...TIMELINE_FILTERS, ...BUILTIN_RULES.flatMap((r) => r.filters)];
  const limits = { maxTotalBytes: 64 * 1024 * 1024, maxEntries: 10_000 };
  let bundle;
  try {
    bundle = await readBundle(path, { filters, limits });
  } catch (err) {
    if (err instanceof InputError) return;
    throw err;
  }
  const result = analyzeModel(bundle, { rules: BUILTIN_RULES, version: 'prop' });
  expect(result.stages).toHaveLength(11);
  expect(bundle.meta.bytes).toBeLessThanOrEqual(64 * 1024 * 1024 + 1024 * 1024);
  expect(result.rules.errors).toEqual([]);
}

describe('random damage to a real bundle', () => {
  it('never makes analyze throw (tar.gz)', async () => {
    await fc.assert(fc.asyncProperty(fc.array(mutation, { minLength: 1, maxLength: 4 }), async (ms) => survives(apply(gz, ms))), { numRuns: 150, seed: 20261122 });
  });
  it('never makes analyze throw (plain tar)', async () => {
    await fc.assert(fc.asyncProperty(fc.array(mutation, { minLength: 1, maxLength: 4 }), async (ms) => survives(apply(tar, ms))), { numRuns: 150, seed: 20261123 });
  });
});
