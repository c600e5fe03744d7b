// A journal as `journalctl --output=short` prints it: explicit events merged in time order
// with re-runnable noise streams, one line per entry (continuation lines indented), boot
// separators, `-- No entries --`, and the `-- Logs begin at` header of older systemd.
import { batchLines, producer, type Producer } from './content.js';
import type { HostInfo } from './model.js';
import { journalShort, systemdLong, type Micros } from './time.js';

export interface JournalEntry {
  t: Micros;
  ident: string;
  pid?: number;
  msg: string;
  /** 0 = the current boot; 1, 2 = earlier boots. */
  boot?: number;
}

/** A re-runnable source of entries in time order. */
export type NoiseSource = () => Iterable<JournalEntry>;

export interface RenderOptions {
  /** `journalctl -u` without `--boot`: every boot, with separators. */
  allBoots?: boolean;
  /** systemd ≤ 245 prints `-- Logs begin at ..., end at ... --` first. */
  header?: { begin: Micros; end: Micros };
}

function* merge(events: JournalEntry[], sources: NoiseSource[]): Iterable<JournalEntry> {
  const iters = [events[Symbol.iterator](), ...sources.map((s) => s()[Symbol.iterator]())];
  const heads: (JournalEntry | undefined)[] = iters.map((it) => it.next().value as JournalEntry | undefined);
  for (;;) {
    let best = -1;
    for (let i = 0; i < heads.length; i++) {
      const h = heads[i];
      if (h && (best < 0 || h.t < (heads[best] as JournalEntry).t)) best = i;
    }
    if (best < 0) return;
    yield heads[best] as JournalEntry;
    heads[best] = iters[best].next().value as JournalEntry | undefined;
  }
}

/** The journal of one unit on one host. */
export class Journal {
  readonly events: JournalEntry[] = [];
  readonly noise: NoiseSource[] = [];

  constructor(
    readonly host: HostInfo,
    readonly unit: string,
  ) {}

  add(t: Micros, ident: string, msg: string, pid?: number, boot = 0): this {
    this.events.push({ t, ident, msg, pid, boot });
    return this;
  }

  addNoise(source: NoiseSource): this {
    this.noise.push(source);
    return this;
  }

  get isEmpty(): boolean {
    return this.events.length === 0 && this.noise.length === 0;
  }

  /** Last event time, if any. */
  lastEventTime(): Micros | undefined {
    return this.events.reduce<Micros | undefined>((m, e) => (m === undefined || e.t > m ? e.t : m), undefined);
  }

  private sorted(): JournalEntry[] {
    return this.events.map((e, i) => ({ e, i })).sort((a, b) => a.e.t - b.e.t || a.i - b.i).map((x) => x.e);
  }

  private *lines(opts: RenderOptions, until?: Micros): Iterable<string> {
    if (opts.header) yield `-- Logs begin at ${systemdLong(opts.header.begin)}, end at ${systemdLong(opts.header.end)}. --\n`;
    let any = false;
    let lastBoot: number | undefined;
    const bootIds = [this.host.bootId, ...this.host.earlierBoots];
    for (const e of merge(this.sorted(), this.noise)) {
      const boot = e.boot ?? 0;
      if (!opts.allBoots && boot !== 0) continue;
      if (until !== undefined && e.t > until) continue;
      if (opts.allBoots && lastBoot !== undefined && boot !== lastBoot) yield `-- Boot ${bootIds[boot]} --\n`;
      lastBoot = boot;
      any = true;
      const prefix = `${journalShort(e.t + this.host.clockOffset)} ${this.host.hostname} ${e.ident}${e.pid !== undefined ? `[${e.pid}]` : ''}: `;
      const parts = e.msg.split('\n');
      yield `${prefix}${parts[0]}\n`;
      for (const p of parts.slice(1)) yield `${' '.repeat(prefix.length)}${p}\n`;
    }
    if (!any) yield '-- No entries --\n';
  }

  /** The rendered journal as re-runnable content; entries after `until` are left out. */
  render(opts: RenderOptions = {}, until?: Micros): Producer {
    return producer(() => batchLines(this.lines(opts, until)));
  }

  /** The last `n` messages (as `--output=cat`), for service records' errorMessage. */
  lastMessages(n: number, before?: Micros): string[] {
    const evs = this.sorted().filter((e) => (e.boot ?? 0) === 0 && (before === undefined || e.t <= before));
    return evs.slice(-n).map((e) => e.msg);
  }
}
