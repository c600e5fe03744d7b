// What one host contributes to the bundle while the story runs: its unit journals, its CRI-O
// and podman containers with their logs, and its failed units.
import { batchLines, producer, type Producer } from './content.js';
import { Journal, type NoiseSource } from './journal.js';
import type { HostInfo } from './model.js';
import type { Prng } from './prng.js';
import type { Micros } from './time.js';

export interface LogLine {
  t: Micros;
  text: string;
}

export type LogNoise = () => Iterable<LogLine>;

/** A container's or console's plain log: lines in time order, noise merged in. */
export class PlainLog {
  readonly lines: LogLine[] = [];
  readonly noise: LogNoise[] = [];

  add(t: Micros, text: string): this {
    this.lines.push({ t, text });
    return this;
  }

  addNoise(n: LogNoise): this {
    this.noise.push(n);
    return this;
  }

  private *iter(until?: Micros): Iterable<string> {
    const sorted = this.lines.map((l, i) => ({ l, i })).sort((a, b) => a.l.t - b.l.t || a.i - b.i).map((x) => x.l);
    const iters = [sorted[Symbol.iterator](), ...this.noise.map((n) => n()[Symbol.iterator]())];
    const heads = iters.map((it) => it.next().value as LogLine | undefined);
    for (;;) {
      let best = -1;
      for (let i = 0; i < heads.length; i++) {
        const h = heads[i];
        if (h && (best < 0 || h.t < (heads[best] as LogLine).t)) best = i;
      }
      if (best < 0) return;
      const l = heads[best] as LogLine;
      if (until === undefined || l.t <= until) yield `${l.text}\n`;
      heads[best] = iters[best].next().value as LogLine | undefined;
    }
  }

  render(until?: Micros): Producer {
    return producer(() => batchLines(this.iter(until)));
  }
}

export type ContainerState = 'running' | 'exited';

/** A CRI-O container as `crictl inspect` describes it. */
export interface CriContainer {
  id: string;
  name: string;
  podName: string;
  namespace: string;
  podUid: string;
  sandboxId: string;
  image: string;
  attempt: number;
  state: ContainerState;
  createdAt: Micros;
  startedAt: Micros;
  finishedAt?: Micros;
  exitCode: number;
  reason?: string;
  message?: string;
  pid: number;
  command: string[];
  mounts: { containerPath: string; hostPath: string; readonly?: boolean }[];
  env?: string[];
  log: PlainLog;
  terminationGracePeriod?: number;
}

/** A podman container as `podman inspect` describes it. */
export interface PodmanContainer {
  id: string;
  name: string;
  image: string;
  imageId: string;
  path: string;
  args: string[];
  state: ContainerState;
  createdAt: Micros;
  startedAt: Micros;
  finishedAt?: Micros;
  exitCode: number;
  pid: number;
  mounts: { source: string; destination: string; rw: boolean }[];
  env: string[];
  log: PlainLog;
}

export class HostLogs {
  readonly journals = new Map<string, Journal>();
  readonly containers: CriContainer[] = [];
  readonly podman: PodmanContainer[] = [];
  readonly failedUnits: { unit: string; description: string }[] = [];
  /** Other files of the host's part, by path relative to it. */
  readonly extra = new Map<string, PlainLog | string>();

  constructor(
    readonly host: HostInfo,
    readonly prng: Prng,
  ) {}

  journal(unit: string): Journal {
    let j = this.journals.get(unit);
    if (!j) {
      j = new Journal(this.host, unit);
      this.journals.set(unit, j);
    }
    return j;
  }

  noise(unit: string, source: NoiseSource): void {
    this.journal(unit).addNoise(source);
  }

  /** A process id for a named process, stable for the host. */
  pid(name: string, min = 1500, max = 9000): number {
    const known = this.host.pids[name];
    if (known !== undefined) return known;
    const v = this.prng.fork(`pid/${name}`).int(min, max);
    this.host.pids[name] = v;
    return v;
  }

  fail(unit: string, description: string): void {
    if (!this.failedUnits.some((u) => u.unit === unit)) this.failedUnits.push({ unit, description });
  }

  container(c: CriContainer): CriContainer {
    this.containers.push(c);
    return c;
  }
}
