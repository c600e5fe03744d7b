// The blind record of a real case: the loader checks it, and the blind figure sums it up against
// what the thread established (not against what today's code says).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import yaml from 'js-yaml';
import { describe, expect, it } from 'vitest';
import { summarizeBlind } from './real/blind.js';
import { CASES_DIR, checkCase, loadCorpus, type RealCase } from './real/cases.js';

// Cases scored before `blind:` existed and given none (no note states their first verdict case by
// case). Every case added since records one, so this number never grows.
const CASES_WITHOUT_BLIND = 96;

function doc(id: string): { raw: Record<string, unknown>; file: string } {
  const file = join(CASES_DIR, `${id}.yaml`);
  return { raw: yaml.load(readFileSync(file, 'utf8')) as Record<string, unknown>, file };
}

describe('the blind record of a real case', () => {
  it('is read with its day as text, from a bare YAML date', () => {
    const { raw, file } = doc('okd-607-bootstrap-ignition-expired');
    expect((raw.blind as Record<string, unknown>).on).toBeInstanceOf(Date);
    expect(checkCase(raw, file).blind).toMatchObject({ status: 'failed', stage: 'bootstrap-control-plane', on: '2026-11-25', scoredWith: '34de196' });
  });

  it('is refused when it is not what bootlens could have said, or does not say when and with what', () => {
    const { raw, file } = doc('okd-607-bootstrap-ignition-expired');
    const blind = raw.blind as Record<string, unknown>;
    const bad: [Record<string, unknown>, RegExp][] = [
      [{ ...blind, status: 'broken' }, /blind\.status/],
      [{ ...blind, stage: 'bootstrap' }, /not a taxonomy stage/],
      [{ ...blind, category: 'disk' }, /not a taxonomy category/],
      [{ ...blind, status: 'healthy' }, /names no stage or category/],
      [{ ...blind, scoredWith: 'main' }, /scoredWith/],
      [{ ...blind, on: 'yesterday' }, /blind\.on/],
      [{ ...blind, expected: 'x' }, /unknown fields: expected/],
      [(({ category: _c, ...rest }) => rest)(blind), /blind\.category is missing/],
    ];
    for (const [b, message] of bad) expect(() => checkCase({ ...raw, blind: b }, file), JSON.stringify(b)).toThrow(message);
    expect(checkCase({ ...raw, blind: { ...blind, status: 'inconclusive', stage: null, category: null } }, file).blind?.status).toBe('inconclusive');
  });

  it('is kept by every case added since the field exists', () => {
    const { cases, problems } = loadCorpus();
    expect(problems).toEqual([]);
    expect(cases.filter((c) => !c.blind).length).toBeLessThanOrEqual(CASES_WITHOUT_BLIND);
  });
});

describe('the blind figure', () => {
  const { cases } = loadCorpus();
  const byId = (id: string) => cases.find((c) => c.id === id) as RealCase;

  it('counts a case right only where its first verdict named what the thread established', () => {
    // okd#381: first scored bootstrap-control-plane/certificate-expired; the thread: resource-exhaustion.
    const s = summarizeBlind([byId('okd-381-insufficient-ram-api-x509'), byId('okd-607-bootstrap-ignition-expired')]);
    expect(s).toMatchObject({ scored: 2, failures: 2, stageOk: 2, categoryOk: 1 });
    expect(s.text).toContain('okd-381-insufficient-ram-api-x509: bootstrap-control-plane/resource-exhaustion → bootstrap-control-plane/certificate-expired');
    expect(s.text).not.toContain('okd-607-bootstrap-ignition-expired:');
  });

  it('calls a healthy install failed when its first verdict did, and leaves cases without a record out', () => {
    const healthy = byId('healthy-okd-373-retry-install-complete');
    const calledFailed: RealCase = { ...healthy, blind: { status: 'failed', stage: 'workers', category: 'unknown', scoredWith: '5ff23e2', on: '2026-11-27' } };
    const s = summarizeBlind([calledFailed, healthy, byId('okd-607-bootstrap-ignition-expired')]);
    expect(s).toMatchObject({ scored: 2, healthy: 1, failures: 1, healthyCalledFailed: [healthy.id] });
  });
});
