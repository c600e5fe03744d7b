// The stage timeline: for each taxonomy stage, its status, times, hosts and the evidence that
// decided it. Built from the model alone, before any rule runs.
import type { EpochMs } from '../model/types.js';
import type { StageId } from '../taxonomy.js';

/** One line cited as evidence, with a little context. */
export interface Evidence {
  file: string;
  line?: number;
  text: string;
  time?: EpochMs;
  host?: string;
  /** Lines just before and after, when the reader kept them. */
  before?: string[];
  after?: string[];
}

export type StageStatus = 'ok' | 'failed' | 'in-progress' | 'not-reached' | 'unknown';

export interface StageState {
  id: StageId;
  status: StageStatus;
  start?: EpochMs;
  end?: EpochMs;
  hosts: string[];
  /** What decided the status: service records, journal markers, resources, installer log. */
  decidedBy?: string;
  evidence: Evidence[];
}

export interface Timeline {
  stages: StageState[];
}
