import { describe, expect, it } from 'vitest';
import { JournalCollector } from '../../src/ingest/journal-collector.js';
import { ActiveFilters } from '../../src/ingest/line-filter.js';
import { DEFAULT_LOG_LIMITS } from '../../src/ingest/log-collector.js';
import { LogStream } from '../../src/ingest/log-stream.js';
import type { LineTap } from '../../src/specs/line-filter.js';
import { LiteralSearch } from '../../src/text/literal-search.js';
import { logRefOf } from '../../src/specs/layout.js';
import type { LogRef } from '../../src/model/source-id.js';
import { ROOT } from '../support/fixture-bundle.js';

const MiB = 1024 * 1024;
const ref = logRefOf(`${ROOT}/bootstrap/journals/kubelet.log`) as LogRef;

/** A 20 MiB kubelet journal: `ready` on most lines, an error now and then, a few nodes not ready. */
function journal(): Buffer {
  const lines: string[] = [];
  let bytes = 0;
  for (let i = 0; bytes < 20 * MiB; i++) {
    const t = `11:${String(Math.floor(i / 60) % 60).padStart(2, '0')}:${String(i % 60).padStart(2, '0')}`;
    let line = `Nov 22 ${t} bootstrap kubelet.sh[2519]: I1122 ${t}.000123 2519 status_manager.go:${i % 900}] "Pod is ready" pod="etcd-${i % 7}" ready=true already=${i % 2}`;
    if (i % 97 === 0) line = `Nov 22 ${t} bootstrap kubelet.sh[2519]: E1122 ${t}.000123 2519 kubelet.go:2411] "Error getting node" err="node \\"m-${i % 3}\\" not found"`;
    if (i % 1013 === 0) line = `Nov 22 ${t} bootstrap kubelet.sh[2519]: I1122 ${t}.000123 2519 kubelet_node_status.go:70] "Node not ready" node="m-${i % 3}"`;
    lines.push(line);
    bytes += line.length + 1;
  }
  return Buffer.from(lines.join('\n') + '\n');
}

/** The lines a tap for `error` and `not ready` sees, and the searches that scanned them. */
function tapped(bytes: Buffer, size: number | undefined): { seen: string[]; searches: Set<LiteralSearch> } {
  const seen: string[] = [];
  const tap: LineTap = { literals: ['error', 'Error', 'not ready'], observe: (raw, n) => seen.push(`${n}:${raw}`) };
  const collector = new JournalCollector({ file: ref.file }, ref.source, new ActiveFilters([], ref.source), DEFAULT_LOG_LIMITS, Date.UTC(2026, 10, 22, 12));
  const searches = new Set<LiteralSearch>();
  // Which search objects scan the log: each one the stream uses, once.
  const scan = LiteralSearch.prototype.scan;
  LiteralSearch.prototype.scan = function (this: LiteralSearch, ...args: Parameters<LiteralSearch['scan']>): void {
    searches.add(this);
    scan.apply(this, args);
  };
  try {
    const stream = new LogStream(collector, 4096, [tap], size);
    for (let i = 0; i < bytes.length; i += MiB) stream.push(bytes.subarray(i, i + MiB));
    stream.end();
  } finally {
    LiteralSearch.prototype.scan = scan;
  }
  return { seen, searches };
}

describe('LogStream anchoring the search of a long tapped log on its own text', () => {
  it('scans the tail with a search learned from the log, and hands over the same lines', () => {
    const bytes = journal();
    const learned = tapped(bytes, bytes.length);
    const plain = tapped(bytes, undefined);
    expect(plain.searches.size).toBe(1);
    // The search the stream started with, then the one anchored on the stretch before the tail.
    expect(learned.searches.size).toBe(2);
    expect(learned.seen.length).toBeGreaterThan(1000);
    expect(learned.seen).toEqual(plain.seen);
  });
});
