// Cutting a long line for a report keeps what the finding is about: its match, the values it
// names (a file, an image), whole; cuts never split an escape; prose is cut at a word.
import { describe, expect, it } from 'vitest';
import { flatText } from '../../src/report/escape.js';
import { fitLine, KEEP_MAX, lineRows, oneLine } from '../../src/report/format.js';

const span = (text: string, part: string, from = 0): { start: number; end: number } => {
  const start = text.indexOf(part, from);
  if (start < 0) throw new Error(`${part} not in the line`);
  return { start, end: start + part.length };
};

// The machine-config operator's Degraded condition as the gather writes it, read into one line.
const MCO =
  'machine-config Degraded=True RequiredPoolsFailed: Unable to apply 4.16.3: error during syncRequiredMachineConfigPools: [context deadline exceeded, error MachineConfigPool master is not ready, retrying. Status: (pool degraded: true total: 3, ready 0, updated: 0, unavailable: 1)]. Node master-0.ocp4.example.com is reporting: "unexpected on-disk state validating against rendered-master-8bd6f27c8029fb358c8835dabc9b4b54: content mismatch for file \\"/etc/containers/registries.conf\\""';

describe('fitLine keeps the match and the facts whole', () => {
  const match = span(MCO, 'unexpected on-disk state validating against rendered-master-8bd6f27c8029fb358c8835dabc9b4b54');
  const file = span(MCO, '/etc/containers/registries.conf');

  it('keeps the file a finding names beside its match, with … for what lies outside them', () => {
    const out = fitLine(MCO, 200, match, [file]);
    expect(out.length).toBeLessThanOrEqual(200);
    expect(out).toContain('unexpected on-disk state validating against rendered-master-8bd6f27c8029fb358c8835dabc9b4b54');
    expect(out).toContain('/etc/containers/registries.conf');
    expect(out.startsWith('…')).toBe(true);
    // Without the fact the same width drops the file: the fact is what keeps it.
    expect(fitLine(MCO, 100, match)).not.toContain('/etc/containers/registries.conf');
  });

  it('goes past the width only when the kept parts alone are wider, and lineRows shows that in rows', () => {
    const out = fitLine(MCO, 60, match, [file]);
    expect(out).toContain('rendered-master-8bd6f27c8029fb358c8835dabc9b4b54');
    expect(out).toContain('/etc/containers/registries.conf');
    expect(out).toMatch(/^…unexpected on-disk state.*rendered-master-8bd6f27c8029fb358c8835dabc9b4b54…\/etc\/containers\/registries\.conf…$/);
    const rows = lineRows(MCO, 60, match, [file]);
    expect(rows.length).toBeGreaterThan(1);
    for (const r of rows) expect(r.length).toBeLessThanOrEqual(60);
    // Rows break at spaces where they can: the same text, row after row.
    expect(rows.join('').replace(/\s/g, '')).toBe(out.replace(/\s/g, ''));
  });

  it('never cuts between a backslash and the quote it escapes', () => {
    const logfmt = String.raw`time="2026-11-22T12:01:10Z" level=error msg="Cluster operator authentication Degraded is True with OAuthServerRouteEndpointAccessibleController_SyncError: OAuthServerRouteEndpointAccessibleControllerDegraded: Get \"https://oauth-openshift.apps.ocp4.example.com/healthz\": context deadline exceeded"`;
    const err = span(logfmt, 'context deadline exceeded');
    for (let w = 40; w < logfmt.length; w++) {
      const out = fitLine(logfmt, w, err);
      expect(out, `width ${w}`).not.toMatch(/\\…/);
      const shown = out.replace(/^…/, '').replace(/…$/, '');
      const from = logfmt.indexOf(shown);
      expect(from, `width ${w}`).toBeGreaterThanOrEqual(0);
      // The shown text never starts with the quote of an escape whose backslash was cut away.
      expect(logfmt[from - 1] === '\\' && shown.startsWith('"'), `width ${w}`).toBe(false);
      expect(out).toContain('context deadline exceeded');
    }
  });

  it('starts and ends the context around a kept part at a word', () => {
    const failed = 'time="2026-11-22T11:20:01Z" level=error msg="failed to initialize the cluster: Cluster operator machine-config is not available" component=installer';
    const msg = span(failed, 'failed to initialize the cluster: Cluster operator machine-config is not available');
    const word = (c: string | undefined): boolean => c !== undefined && /\w/.test(c);
    for (let w = 90; w < failed.length; w++) {
      const out = fitLine(failed, w, msg);
      expect(out, `width ${w}`).toContain('failed to initialize the cluster: Cluster operator machine-config is not available');
      const shown = out.replace(/^…/, '').replace(/…$/, '');
      const from = failed.indexOf(shown);
      expect(from, `width ${w}`).toBeGreaterThanOrEqual(0);
      // Never `…ror msg=` or `…onent=`: where text was dropped, the shown part begins and ends a word.
      expect(word(failed[from - 1]) && word(failed[from]), `${out} (width ${w})`).toBe(false);
      const to = from + shown.length;
      expect(word(failed[to - 1]) && word(failed[to]), `${out} (width ${w})`).toBe(false);
    }
  });

  it('shortens one kept part longer than KEEP_MAX to its head and tail', () => {
    const long = `x ${'word '.repeat(400)}END`;
    const out = fitLine(long, 100, { start: 2, end: long.length });
    expect(out.length).toBeLessThanOrEqual(KEEP_MAX + 1);
    expect(out.startsWith('…word word')).toBe(true);
    expect(out.endsWith('word END')).toBe(true);
  });
});

describe('prose is cut at a word', () => {
  it('oneLine and flatText end at a word with …', () => {
    const text = 'Unable to apply 4.16.3: error during syncRequiredMachineConfigPools: context deadline exceeded';
    expect(oneLine(text, 60)).toBe('Unable to apply 4.16.3: error during…');
    expect(flatText(text, 60)).toBe('Unable to apply 4.16.3: error during…');
    expect(oneLine(text, 200)).toBe(text);
  });
});
