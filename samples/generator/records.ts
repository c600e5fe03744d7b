// Bootstrap service records (/var/log/openshift/<service>.json) as bootstrap-service-record.sh
// writes them with jq: one entry per service/stage start and end, empty fields left out.
import { isoSeconds, type Micros } from './time.js';

export interface RecordEntry {
  timestamp: string;
  preCommand?: string;
  postCommand?: string;
  stage?: string;
  phase: string;
  result?: 'success' | 'failure';
  errorLine?: string;
  errorMessage?: string;
}

const KEY_ORDER: (keyof RecordEntry)[] = ['timestamp', 'preCommand', 'postCommand', 'stage', 'phase', 'result', 'errorLine', 'errorMessage'];

export class ServiceRecord {
  readonly entries: RecordEntry[] = [];
  private openStage?: string;

  constructor(readonly service: string) {}

  private push(t: Micros, e: Omit<RecordEntry, 'timestamp'>): void {
    const all: RecordEntry = { timestamp: isoSeconds(t), ...e };
    // jq builds the object in this key order and drops empty values.
    const out: Record<string, string> = {};
    for (const k of KEY_ORDER) {
      const v = all[k];
      if (v !== undefined && v !== '') out[k] = v;
    }
    this.entries.push(out as unknown as RecordEntry);
  }

  start(t: Micros): this {
    this.push(t, { phase: 'service start' });
    return this;
  }

  stageStart(t: Micros, stage: string): this {
    this.openStage = stage;
    this.push(t, { stage, phase: 'stage start' });
    return this;
  }

  stageEnd(t: Micros, result: 'success' | 'failure', error?: { line: string; message: string }): this {
    this.push(t, { stage: this.openStage, phase: 'stage end', result, errorLine: error?.line, errorMessage: error?.message });
    this.openStage = undefined;
    return this;
  }

  end(t: Micros, result: 'success' | 'failure', error?: { line: string; message: string }): this {
    if (this.openStage) this.stageEnd(t, result, error);
    this.push(t, { phase: 'service end', result, errorLine: error?.line, errorMessage: error?.message });
    return this;
  }

  get stageOpen(): string | undefined {
    return this.openStage;
  }

  render(): string {
    return `${JSON.stringify(this.entries, null, 2)}\n`;
  }
}
