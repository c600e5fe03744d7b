import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LineScanner, type LineConsumer } from '../../src/text/line-scanner.js';
import { countBigrams, emptyBigramCounts, emptyHits, LiteralSearch, type BigramCounts, type Hits } from '../../src/text/literal-search.js';

type Event = ['line', string, boolean, number] | ['skip', number];

class Recorder implements LineConsumer {
  readonly events: Event[] = [];
  constructor(private readonly headLines = 0) {}
  private seen = 0;
  line(raw: string, truncated: boolean, groups: number): void {
    this.seen++;
    this.events.push(['line', raw, truncated, groups]);
  }
  skip(count: number): void {
    this.seen += count;
    this.events.push(['skip', count]);
  }
  get wantsNext(): boolean {
    return this.seen < this.headLines;
  }
}

function chunksOf(text: string | Buffer, size: number): Buffer[] {
  const bytes = typeof text === 'string' ? Buffer.from(text) : text;
  const out: Buffer[] = [];
  for (let i = 0; i < bytes.length; i += size) out.push(bytes.subarray(i, i + size));
  return out;
}

function scan(chunks: (string | Buffer)[], options: { max?: number; literals?: string[]; context?: number; tail?: number; head?: number; everyLine?: boolean } = {}) {
  const rec = new Recorder(options.head ?? 0);
  const search = options.literals ? LiteralSearch.of(options.literals.map((text) => ({ text, groups: 1 }))) : undefined;
  const s = new LineScanner(rec, {
    maxLineLength: options.max ?? 1000,
    ...(search ? { search } : {}),
    everyLine: options.everyLine ?? !search,
    contextBefore: options.context ?? 0,
    tailLines: options.tail ?? 3,
  });
  for (const c of chunks) s.push(typeof c === 'string' ? Buffer.from(c) : c);
  s.end();
  return { events: rec.events, tail: s.tail(), lines: s.lineCount };
}

/** Lines of up to twelve of `words`, joined by spaces. */
function logLine(...words: string[]): fc.Arbitrary<string> {
  return fc.array(fc.constantFrom(...words), { maxLength: 12 }).map((w) => w.join(' '));
}

function split(chunks: (string | Buffer)[], max = 1000): [string, boolean][] {
  return scan(chunks, { max }).events.flatMap((e) => (e[0] === 'line' ? [[e[1], e[2]] as [string, boolean]] : []));
}

describe('LineScanner handing over every line', () => {
  it('splits across chunk boundaries and strips CR', () => {
    expect(split(['ab', 'c\r\nde', 'f\n', 'g'])).toEqual([
      ['abc', false],
      ['def', false],
      ['g', false],
    ]);
  });
  it('keeps empty lines and has no phantom last line', () => {
    expect(split(['a\n\nb\n'])).toEqual([
      ['a', false],
      ['', false],
      ['b', false],
    ]);
  });
  it('decodes a UTF-8 character split between chunks', () => {
    const bytes = Buffer.from('月x\n');
    expect(split([bytes.subarray(0, 1), bytes.subarray(1)])).toEqual([['月x', false]]);
  });
  it('cuts a line longer than the limit, within one chunk and across chunks', () => {
    expect(split(['x'.repeat(25) + '\nok\n'], 10)).toEqual([
      ['x'.repeat(10), true],
      ['ok', false],
    ]);
    expect(split(['y'.repeat(6), 'y'.repeat(6), 'y'.repeat(6), '\nok'], 10)).toEqual([
      ['y'.repeat(10), true],
      ['ok', false],
    ]);
    // Far past the limit in one chunk: cut without decoding the rest.
    expect(split(['w'.repeat(500) + '\nok\n'], 10)).toEqual([
      ['w'.repeat(10), true],
      ['ok', false],
    ]);
  });
  it('cuts an endless line with no newline at all, holding only the cut', () => {
    const out = split(Array.from({ length: 100 }, () => 'z'.repeat(1000)), 64);
    expect(out).toEqual([['z'.repeat(64), true]]);
  });
  it('counts characters, not bytes, against the limit', () => {
    expect(split(['月'.repeat(10) + '\n'], 10)).toEqual([['月'.repeat(10), false]]);
    expect(split(['月'.repeat(11) + '\n'], 10)).toEqual([['月'.repeat(10), true]]);
  });
  it('replaces invalid UTF-8 instead of failing', () => {
    const out = split([Buffer.from([0x66, 0xff, 0xfe, 0x0a])]);
    expect(out[0][0]).toBe('f\ufffd\ufffd');
  });
});

describe('LineScanner passing over lines', () => {
  const log = Array.from({ length: 40 }, (_, i) => (i === 20 ? 'line 20 has NEEDLE in it' : `line ${i} plain`)).join('\n') + '\n';

  it('hands over a matching line with its context and counts the rest as skipped', () => {
    for (const size of [1, 7, 64, 4096]) {
      const { events, tail, lines } = scan(chunksOf(log, size), { literals: ['NEEDLE'], context: 2, tail: 3 });
      expect(events).toEqual([
        ['skip', 18],
        ['line', 'line 18 plain', false, 0],
        ['line', 'line 19 plain', false, 0],
        ['line', 'line 20 has NEEDLE in it', false, 1],
        ['skip', 16],
        ['line', 'line 37 plain', false, 0],
        ['line', 'line 38 plain', false, 0],
        // The last line is always handed over: the consumer sees where the log ends.
        ['line', 'line 39 plain', false, 0],
      ]);
      expect(lines).toBe(40);
      expect(tail).toEqual([
        { raw: 'line 37 plain', line: 38, truncated: false },
        { raw: 'line 38 plain', line: 39, truncated: false },
        { raw: 'line 39 plain', line: 40, truncated: false },
      ]);
    }
  });

  it('hands over lines while the consumer wants them (the head)', () => {
    const { events } = scan([log], { literals: ['NEEDLE'], head: 3 });
    expect(events.slice(0, 4)).toEqual([
      ['line', 'line 0 plain', false, 0],
      ['line', 'line 1 plain', false, 0],
      ['line', 'line 2 plain', false, 0],
      ['skip', 17],
    ]);
  });

  it('always hands over a cut line and the last line, with or without a newline', () => {
    const text = `a\n${'x'.repeat(50)}\nb\nc`;
    const { events, tail } = scan([text], { literals: ['NEEDLE'], max: 10, tail: 2 });
    expect(events).toEqual([
      ['skip', 1],
      ['line', 'x'.repeat(10), true, 0],
      ['skip', 1],
      ['line', 'c', false, 0],
    ]);
    expect(tail).toEqual([
      { raw: 'b', line: 3, truncated: false },
      { raw: 'c', line: 4, truncated: false },
    ]);
  });

  it('goes back to the first line of a multi-line entry when a continuation line matches', () => {
    const text = ['head 1', 'Nov 22 entry:', '  cont a', '  cont b', '  cont NEEDLE', 'next'].join('\n');
    const rec = new Recorder();
    const s = new LineScanner(rec, {
      maxLineLength: 100,
      search: LiteralSearch.of([{ text: 'NEEDLE', groups: 2 }]),
      contextBefore: 1,
      tailLines: 1,
      continues: (raw) => raw.startsWith(' '),
    });
    s.push(Buffer.from(text));
    s.end();
    expect(rec.events).toEqual([
      ['skip', 1],
      ['line', 'Nov 22 entry:', false, 0],
      ['line', '  cont a', false, 0],
      ['line', '  cont b', false, 0],
      ['line', '  cont NEEDLE', false, 2],
      ['line', 'next', false, 0],
    ]);
  });

  it('finds a literal in a line that spans chunks', () => {
    const { events } = scan(['aaa\nxx NEE', 'DLE yy\nbbb\n'], { literals: ['NEEDLE'] });
    expect(events).toEqual([
      ['skip', 1],
      ['line', 'xx NEEDLE yy', false, 1],
      ['line', 'bbb', false, 0],
    ]);
  });

  it('sees the same lines in any chunking (property)', () => {
    const word = fc.constantFrom('alpha', 'beta', 'NEEDLE', 'needle', 'x=1', '', ' ', 'Ωμέγα', 'needles-NEEDLE', '\r');
    const lineArb = fc.array(word, { maxLength: 6 }).map((ws) => ws.join(' '));
    fc.assert(
      fc.property(fc.array(lineArb, { maxLength: 60 }), fc.integer({ min: 1, max: 50 }), fc.integer({ min: 0, max: 3 }), (lines, size, context) => {
        const text = lines.join('\n');
        const whole = scan([text], { literals: ['NEEDLE'], context, tail: 5, max: 40 });
        const chunked = scan(chunksOf(text, size), { literals: ['NEEDLE'], context, tail: 5, max: 40 });
        expect(chunked).toEqual(whole);
        // Against a plain split: every matching line is handed over with its number.
        const all = text.split('\n');
        if (all[all.length - 1] === '') all.pop();
        let n = 0;
        const got: [number, string][] = [];
        for (const e of whole.events) {
          if (e[0] === 'skip') n += e[1];
          else {
            n++;
            if (e[3] !== 0) got.push([n, e[1]]);
          }
        }
        const want = all.flatMap((l, i) => (l.includes('NEEDLE') ? [[i + 1, l.replace(/\r$/, '').slice(0, 40)] as [number, string]] : []));
        expect(got).toEqual(want);
        expect(whole.lines).toBe(all.length);
      }),
      { numRuns: 300 },
    );
  });
});

describe('LiteralSearch', () => {
  // Each line (by index) holding a literal, with the literals it holds.
  function naive(text: Buffer, literals: string[]): Map<number, Set<string>> {
    const out = new Map<number, Set<string>>();
    text
      .toString('utf8')
      .split('\n')
      .forEach((l, i) => {
        const held = literals.filter((x) => l.includes(x));
        if (held.length > 0) out.set(i, new Set(held));
      });
    return out;
  }
  function found(text: Buffer, literals: string[]): Map<number, Set<string>> {
    const hits = emptyHits();
    LiteralSearch.of(literals.map((t) => ({ text: t, groups: 1 }))).scan(text, 0, text.length, hits);
    const out = new Map<number, Set<string>>();
    hits.positions.forEach((p, k) => {
      const line = text.subarray(0, p).filter((b) => b === 10).length;
      let held = out.get(line);
      if (!held) out.set(line, (held = new Set()));
      held.add(hits.found[k].text);
    });
    return out;
  }

  it('finds long, short and non-ASCII literals, with their groups', () => {
    const text = Buffer.from('ok\nan oom-kill here\nE1122 x\nzone 区域 ready\n');
    const hits = emptyHits();
    LiteralSearch.of([
      { text: 'oom-kill', groups: 1 },
      { text: 'E1', groups: 2 },
      { text: '区域', groups: 4 },
    ]).scan(text, 0, text.length, hits);
    expect(hits.found.map((f) => [f.text, f.groups])).toEqual([
      ['oom-kill', 1],
      ['E1', 2],
      ['区域', 4],
    ]);
    expect(hits.positions.every((p, i) => i === 0 || p > hits.positions[i - 1])).toBe(true);
  });

  it('agrees with a naive search, line by line and literal by literal (property)', () => {
    const alphabet = fc.constantFrom(...'abcde -:[]\nEé'.split(''));
    fc.assert(
      fc.property(
        fc.array(alphabet, { maxLength: 400 }).map((a) => a.join('')),
        fc.array(fc.array(fc.constantFrom(...'abcde -:[]Eé'.split('')), { minLength: 1, maxLength: 10 }).map((a) => a.join('')), { minLength: 1, maxLength: 8 }),
        (text, literals) => {
          const bytes = Buffer.from(text);
          expect(found(bytes, literals)).toEqual(naive(bytes, literals));
        },
      ),
      { numRuns: 500 },
    );
  });
});

describe('LiteralSearch over large ranges (four cursors)', () => {
  // A range from 4 KiB on is cut into four stretches of whole lines scanned side by side: the
  // hits must be exactly those of scanning each line alone (one cursor), in order.
  function perLine(text: Buffer, search: LiteralSearch): Hits {
    const out = emptyHits();
    let start = 0;
    while (start <= text.length) {
      const nl = text.indexOf(10, start);
      const end = nl < 0 ? text.length : nl;
      const one = emptyHits();
      search.scan(text, start, end, one);
      out.positions.push(...one.positions);
      out.found.push(...one.found);
      start = end + 1;
    }
    return out;
  }

  it('finds in a whole buffer exactly what it finds line by line (property)', () => {
    const line = logLine('error', 'Failed to', 'connection refused', 'ok', 'etcd', 'E1122', 'timed out', 'x', '区域', 'status');
    fc.assert(
      fc.property(
        fc.array(line, { minLength: 200, maxLength: 1500 }),
        fc.subarray(['error', 'Failed to', 'connection refused', 'timed out', 'E1', 'us', '区域', 'tatus'], { minLength: 1 }),
        (lines, literals) => {
          const text = Buffer.from(lines.join('\n'));
          const search = LiteralSearch.of(literals.map((t, i) => ({ text: t, groups: 1 << i })));
          const whole = emptyHits();
          search.scan(text, 0, text.length, whole);
          expect(whole).toEqual(perLine(text, search));
        },
      ),
      { numRuns: 60 },
    );
  });

  it('keeps one cursor for a literal that holds a newline: its match crosses the lines', () => {
    const text = Buffer.from(`${'x y z\n'.repeat(1000)}end of\nentry\n${'x y z\n'.repeat(1000)}`);
    const hits = emptyHits();
    LiteralSearch.of([{ text: 'of\nentry', groups: 1 }]).scan(text, 0, text.length, hits);
    const at = text.indexOf('of\nentry');
    expect(hits.positions).toHaveLength(1);
    expect(hits.positions[0] >= at && hits.positions[0] < at + 8).toBe(true);
  });

  it('scans a range with one giant line, or newlines only at its ends, like any other', () => {
    const search = LiteralSearch.of([{ text: 'needle', groups: 1 }]);
    for (const text of [
      Buffer.from(`${'a'.repeat(50_000)}needle${'b'.repeat(50_000)}needle`),
      Buffer.from(`\n${'needle '.repeat(2000)}\n`),
      Buffer.from(`${'x'.repeat(4090)}\nneedle\n${'needle'.repeat(3)}`),
    ]) {
      const whole = emptyHits();
      search.scan(text, 0, text.length, whole);
      const expected: number[] = [];
      for (let at = text.indexOf('needle'); at >= 0; at = text.indexOf('needle', at + 1)) expected.push(at);
      // One position inside each match, ascending.
      expect(whole.positions.length).toBe(expected.length);
      whole.positions.forEach((p, i) => expect(p >= expected[i] && p < expected[i] + 6).toBe(true));
    }
  });
});

describe('LiteralSearch anchored on the bigrams of the text it scans', () => {
  const counted = (text: string): BigramCounts => {
    const counts = emptyBigramCounts();
    const bytes = Buffer.from(text);
    countBigrams(counts, bytes, 0, bytes.length, 1);
    return counts;
  };

  it('anchors a literal where the sampled text is rarest, not where English is', () => {
    // `error` makes the window five bytes: `not ready` may be anchored at any pair from ` r` on.
    const literals = [
      { text: 'not ready', groups: 1 },
      { text: 'error', groups: 1 },
    ];
    // On English weights the rarest pair of `not ready` is `dy`; in a kubelet journal `ready`
    // is on every other line, and ` r` (after `not`) is what it rarely holds.
    expect(new LiteralSearch(literals).anchor('not ready')).toBe(8);
    const kubelet = 'I1122 node_ready=true, pod already Ready, "ready" status=ready\n'.repeat(50);
    const anchored = new LiteralSearch(literals, counted(kubelet));
    const at = anchored.anchor('not ready') as number;
    expect(at).toBeLessThan(8);
    expect(kubelet.includes('not ready'.slice(at - 1, at + 1))).toBe(false);
  });

  it('counts every step-th bigram of a range, adding to what was counted', () => {
    const counts = emptyBigramCounts();
    const bytes = Buffer.from('abababab');
    countBigrams(counts, bytes, 0, 4, 1);
    expect([counts[(97 << 8) | 98], counts[(98 << 8) | 97]]).toEqual([2, 1]);
    countBigrams(counts, bytes, 4, 8, 2);
    // From the range's second byte on, every other one: `ab` at 5 and 7.
    expect([counts[(97 << 8) | 98], counts[(98 << 8) | 97]]).toEqual([4, 1]);
  });

  it('finds exactly what the search on English weights finds, whatever the sample (property)', () => {
    const line = logLine('error', 'not ready', 'Failed to', 'ready', 'ok', 'etcd', 'E1122', 'timed out', '区域', 'status');
    fc.assert(
      fc.property(
        fc.array(line, { minLength: 50, maxLength: 800 }),
        fc.array(line, { maxLength: 200 }),
        fc.subarray(['error', 'not ready', 'Failed to', 'timed out', 'E1', 'us', '区域', 'tatus'], { minLength: 1 }),
        (lines, sample, literals) => {
          const text = Buffer.from(lines.join('\n'));
          const grouped = literals.map((t, i) => ({ text: t, groups: 1 << i }));
          const plain = emptyHits();
          const anchored = emptyHits();
          LiteralSearch.of(grouped).scan(text, 0, text.length, plain);
          new LiteralSearch(grouped, counted(sample.join('\n'))).scan(text, 0, text.length, anchored);
          // Positions are inside each match, wherever its anchor is: compare lines and literals.
          const byLine = (h: Hits): string[] => h.positions.map((p, k) => `${text.subarray(0, p).filter((b) => b === 10).length}:${h.found[k].text}`).sort();
          expect(byLine(anchored)).toEqual(byLine(plain));
        },
      ),
      { numRuns: 80 },
    );
  });
});
