// A single-node bundle holds the bootstrap phase's gather (log-bundle-bootstrap/) beside the final
// one: where both wrote the same file, the final one counts, in whatever order the archive
// holds them (node-tar packs breadth-first, GNU tar in directory order).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readBundle } from '../../src/ingest/read-bundle.js';
import { tempDir } from '../support/fixture-bundle.js';
import { rawTar, type RawEntry } from '../support/raw-tar.js';

const R = 'log-bundle-20250218113527';
const node = (ready: boolean) => ({ apiVersion: 'v1', kind: 'Node', metadata: { name: 'master-0', labels: { 'node-role.kubernetes.io/master': '' } }, status: { conditions: [{ type: 'Ready', status: ready ? 'True' : 'False' }] } });
const list = (items: unknown[]) => JSON.stringify({ apiVersion: 'v1', kind: 'List', items });
// Before the reboot the API knew no node; the final gather sees the node Ready.
const EARLY: RawEntry = { path: `${R}/log-bundle-bootstrap/resources/nodes.json`, content: list([]) };
const FINAL: RawEntry = { path: `${R}/resources/nodes.json`, content: list([node(true)]) };

async function nodesOf(order: RawEntry[]) {
  const file = join(tempDir(), 'b.tar');
  writeFileSync(file, rawTar(order));
  const b = await readBundle(file);
  return { nodes: b.cluster?.nodes?.map((n) => [n.name, n.ready]), bootstrapInPlace: b.meta.layout.bootstrapInPlace };
}

describe('single-node bundles', () => {
  it('read the final gather\'s copy of a file, whichever comes first in the archive', async () => {
    const want = { nodes: [['master-0', 'True']], bootstrapInPlace: true };
    expect(await nodesOf([EARLY, FINAL])).toEqual(want);
    expect(await nodesOf([FINAL, EARLY])).toEqual(want);
  });
});
