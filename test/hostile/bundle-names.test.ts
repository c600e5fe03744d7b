// Names from a bundle are only names: a unit, service, host, container, operator or pod called
// `constructor`, `__proto__` or `toString` is looked up like any other and is unknown to every
// table, in every command and output (it gave "FAILED at function Object() { [native code] }",
// exit 2 in analyze and diff, and a worker record that could not cross to the main thread).
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseCrictlInspect } from '../../src/parsers/container-inspect.js';
import { classifyPath } from '../../src/specs/layout.js';
import { sourceOfJournalLine, stageOfSource } from '../../src/specs/source-stage.js';
import { isTriageRecord } from '../../src/triage/record.js';
import { tempDir } from '../support/fixture-bundle.js';
import { PROTO_NAMES, protoNamesBundle } from './crafted-bundles.js';

const CLI = join(process.cwd(), 'dist/src/cli/main.js');
/** What an inherited member of Object looks like once printed. */
const LEAKED = /native code|\[object Object\]|function Object|function toString|Cannot convert object to primitive/;

function run(args: string[]): { status: number | null; stdout: string; stderr: string } {
  return spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', timeout: 120_000 });
}

/** Every source file of bootlens but the generated validators. */
function sourceFiles(dir = join(process.cwd(), 'src')): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = join(dir, e.name);
    if (e.isDirectory()) return e.name === 'compiled-schemas' ? [] : sourceFiles(full);
    return e.name.endsWith('.ts') ? [full] : [];
  });
}

describe('tables keyed by names', () => {
  it('are never plain object literals: every module-level lookup table has no prototype (nameTable) or is a Map', () => {
    const offenders = sourceFiles().flatMap((file) =>
      [...readFileSync(file, 'utf8').matchAll(/^(?:export )?const ([A-Z][A-Z0-9_]*)\s*:\s*(?:Readonly<)?Record<string,[^=]*=\s*\{/gm)].map((m) => `${relative(process.cwd(), file)}: ${m[1]}`),
    );
    expect(offenders).toEqual([]);
  });

  it('know none of Object\'s members: stages, journal identifiers, network files, CRI states', () => {
    for (const name of PROTO_NAMES) {
      for (const role of ['bootstrap', 'master'] as const) {
        const host = role === 'bootstrap' ? { role } : { role, address: '10.0.0.5' };
        expect(stageOfSource({ kind: 'journal', host, unit: name })).toBeUndefined();
        expect(stageOfSource({ kind: 'container', host, container: name })).toBeUndefined();
        const source = { kind: 'journal' as const, host, unit: 'kubelet' };
        expect(sourceOfJournalLine(source, name)).toBe(source);
      }
      expect(classifyPath(`log-bundle-1/bootstrap/network/${name}`).spec).toBeUndefined();
      const inspect = parseCrictlInspect(JSON.stringify({ status: { id: 'abc', metadata: { name }, state: name } }), { file: 'x.inspect' });
      expect(inspect.value?.state).toBe('unknown');
    }
  });
});

describe('a bundle whose names are constructor, __proto__ and toString', () => {
  it('is analyzed, inspected, diffed and triaged like any other, in every format', () => {
    const bundle = protoNamesBundle(tempDir('bootlens-proto-'));
    const outputs: string[] = [];
    for (const format of ['json', 'text', 'md', 'html', 'junit']) {
      const r = run(['analyze', bundle, '-f', format, '--wide']);
      expect(r.stderr).toBe('');
      expect([0, 1]).toContain(r.status);
      outputs.push(r.stdout);
    }
    const report = JSON.parse(outputs[0]) as { verdict: { stage: unknown; category: unknown; summary: string } };
    expect(typeof report.verdict.stage === 'string' || report.verdict.stage === null).toBe(true);
    for (const format of ['text', 'json']) {
      const r = run(['inspect', bundle, '-f', format, '--wide']);
      expect(r.stderr).toBe('');
      expect(r.status).toBe(0);
      outputs.push(r.stdout);
    }
    const model = JSON.parse(outputs.at(-1) as string) as { bootstrap: { serviceRecords: Record<string, unknown>; journals: Record<string, unknown> } };
    for (const name of PROTO_NAMES) {
      expect(Object.keys(model.bootstrap.serviceRecords)).toContain(name);
      expect(Object.keys(model.bootstrap.journals)).toContain(name);
    }
    const diff = run(['diff', bundle, bundle]);
    expect(diff.stderr).toBe('');
    expect(diff.status).toBe(0);
    outputs.push(diff.stdout);
    const jsonl = join(tempDir(), 'records.jsonl');
    const triage = run(['triage', bundle, '--jobs', '1', '--jsonl', jsonl, '--wide']);
    expect(triage.status).toBe(1);
    outputs.push(triage.stdout);
    const records = readFileSync(jsonl, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as unknown);
    expect(records).toHaveLength(1);
    expect(isTriageRecord(records[0])).toBe(true);
    expect(records[0]).toMatchObject({ status: 'analyzed' });
    for (const text of outputs) expect(text).not.toMatch(LEAKED);
  });
});
