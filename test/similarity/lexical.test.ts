import { describe, expect, it } from 'vitest';
import { logRefOf } from '../../src/specs/layout.js';
import type { LogRef } from '../../src/model/source-id.js';
import { createMiner } from '../../src/similarity/drain.js';
import { loadKnowledgeBase } from '../../src/similarity/knowledge-base.js';
import { buildLexicalIndex, cosine, featuresOf, lexicalVector } from '../../src/similarity/lexical.js';
import { findSimilar } from '../../src/similarity/match.js';
import { ROOT } from '../support/fixture-bundle.js';

const releaseImage: LogRef = logRefOf(`${ROOT}/bootstrap/journals/release-image.log`) as LogRef;

function candidatesOf(lines: string[], target: LogRef = releaseImage) {
  const miner = createMiner();
  miner.observe(target, lines);
  return miner.candidates();
}

describe('lexical similarity', () => {
  it('weighs rare words over common ones and word order through pairs', () => {
    const index = buildLexicalIndex([featuresOf('connection refused'), featuresOf('connection reset by peer'), featuresOf('no space left on device')]);
    const a = lexicalVector(index, featuresOf('dial tcp: connect: connection refused'));
    expect(cosine(a, lexicalVector(index, featuresOf('connection refused')))).toBeGreaterThan(cosine(a, lexicalVector(index, featuresOf('connection reset by peer'))));
    expect(cosine(a, a)).toBeCloseTo(1, 6);
  });

  it('ranks the right known issue first for a pull secret the registry rejects, on another cluster', async () => {
    const lines: string[] = [];
    for (let m = 10; m < 40; m++) {
      lines.push(`Mar 03 11:${m}:40 bootstrap.prod.acme.internal release-image-download.sh[2210]: Pulling registry.acme.internal:8443/ocp4/release@sha256:9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08...`);
      lines.push(
        `Mar 03 11:${m}:51 bootstrap.prod.acme.internal release-image-download.sh[2210]: Error: initializing source docker://registry.acme.internal:8443/ocp4/release@sha256:9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08: reading manifest sha256:9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08 in registry.acme.internal:8443/ocp4/release: unauthorized: authentication required`,
      );
      lines.push(`Mar 03 11:${m}:51 bootstrap.prod.acme.internal release-image-download.sh[2210]: Pull failed. Retrying registry.acme.internal:8443/ocp4/release@sha256:9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08...`);
    }
    const similar = await findSimilar(candidatesOf(lines), loadKnowledgeBase(), { mode: 'lexical' });
    expect(similar[0]).toMatchObject({ id: 'release-pull-unauthorized', stage: 'release-image', category: 'registry-auth', rule: 'release-pull-unauthorized' });
    expect(similar[0].score).toBeGreaterThan(0.7);
    expect(similar[0].matchedLines[0]).toMatchObject({ file: releaseImage.file, line: 2 });
    expect(similar[0].matchedLines[0].knownLine).toContain('unauthorized: authentication required');
    expect(similar[0].fix.length).toBeGreaterThan(0);
    // Deterministic: the same input gives the same ranking and scores.
    expect(await findSimilar(candidatesOf(lines), loadKnowledgeBase(), { mode: 'lexical' })).toEqual(similar);
  });

  it('tells apart failures whose lines share most words', async () => {
    const kb = loadKnowledgeBase();
    const x509 = candidatesOf([
      'Dec 05 09:18:41 bootstrap release-image-download.sh[2166]: Error: initializing source docker://mirror.lab:5000/ocp/release@sha256:aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa1: pinging container registry mirror.lab:5000: Get "https://mirror.lab:5000/v2/": x509: certificate signed by unknown authority',
    ]);
    const proxy = candidatesOf([
      'Dec 05 09:18:41 bootstrap release-image-download.sh[2166]: Error: initializing source docker://quay.io/openshift-release-dev/ocp-release@sha256:aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa1: pinging container registry quay.io: Get "https://quay.io/v2/": proxyconnect tcp: dial tcp 10.1.1.1:3128: connect: connection refused',
    ]);
    expect((await findSimilar(x509, kb, { mode: 'lexical' }))[0].id).toBe('release-pull-untrusted-registry-cert');
    expect((await findSimilar(proxy, kb, { mode: 'lexical' }))[0].id).toBe('release-pull-proxy-error');
  });

  it('finds nothing in unrelated errors, and nothing at all when off', async () => {
    const kb = loadKnowledgeBase();
    const other = candidatesOf(['Nov 22 10:00:00 host app[1]: error: the frobnicator jammed while polishing widgets']);
    expect(await findSimilar(other, kb, { mode: 'lexical' })).toEqual([]);
    const lines = ['Nov 22 10:00:00 b release-image-download.sh[1]: Error: reading manifest latest in quay.io/x/y: unauthorized: authentication required'];
    expect(await findSimilar(candidatesOf(lines), kb, { mode: 'off' })).toEqual([]);
  });
});
