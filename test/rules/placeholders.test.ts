// One filler for messages and fix steps: values filled, a missing one never made up.
import { describe, expect, it } from 'vitest';
import { fillPlaceholders } from '../../src/rules/placeholders.js';
import { contextFor } from '../../src/rules/engine.js';
import type { Rule } from '../../src/rules/types.js';
import type { Bundle } from '../../src/model/types.js';
import { buildTimeline } from '../../src/timeline/build-timeline.js';

describe('fillPlaceholders', () => {
  it('fills the values it has', () => {
    expect(fillPlaceholders('Pulling {image} was refused on {host}', { image: 'quay.io/x', host: 'bootstrap' })).toBe('Pulling quay.io/x was refused on bootstrap');
  });

  it('leaves out a parenthesis that names a missing value, and keeps other braces as written', () => {
    expect(fillPlaceholders('slow disk (for example an fdatasync took {took}) on {host}', { host: 'm0' })).toBe('slow disk on m0');
    const jsonpath = "`oc get etcd cluster -o jsonpath='{range .status.conditions[*]}{.type}={.status}{\"\\n\"}{end}'`";
    expect(fillPlaceholders(`See what the operator reports: ${jsonpath}`, {})).toBe(`See what the operator reports: ${jsonpath}`);
    expect(fillPlaceholders('Remove it: `podman rm {name}`', {})).toBe('Remove it: `podman rm {name}`');
  });

  it('makes the plural after a count of one singular', () => {
    expect(fillPlaceholders('({count} failed checks)', { count: '1' })).toBe('(1 failed check)');
    expect(fillPlaceholders('({count} failed checks)', { count: '3' })).toBe('(3 failed checks)');
    expect(fillPlaceholders('({count} retries)', { count: '1' })).toBe('(1 retry)');
  });

  it('fills the fix steps of every finding the engine makes', () => {
    const rule: Rule = {
      meta: { id: 'x', title: 'x', stage: 'bootstrap-etcd', category: 'etcd-health', severity: 'error', confidence: 'high', description: 'x', references: [], origin: 'x.ts', fix: ['Check {disk} (took {took})', 'Run `jsonpath={end}`'] },
      filters: [],
      check: () => [],
    };
    const bundle: Bundle = { meta: { name: 'b', path: 'b', format: 'directory', entries: 0, bytes: 0, otherFiles: 0, layout: { bootstrapInPlace: false, nestedArchives: [], mastersMissing: true } }, masters: [], serialLogs: [], clusterApiLogs: [], problems: [] };
    const f = contextFor(rule, bundle, buildTimeline(bundle)).finding({ message: 'm', evidence: [], captures: { disk: '/dev/sda' } });
    expect(f.fix).toEqual(['Check /dev/sda', 'Run `jsonpath={end}`']);
  });
});
