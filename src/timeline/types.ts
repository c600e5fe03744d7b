// The stage timeline: for each taxonomy stage, its status, times, hosts and the evidence that
// decided it. Built from the model alone, before any rule runs.
import type { StageState } from '../result/types.js';

export type { StageState, StageStatus } from '../result/types.js';




export interface Timeline {
  stages: StageState[];
}

/** The temporary bootstrap API answered: what cluster-bootstrap's failure means depends on it. */
export function bootstrapApiAnswered(t: Timeline): boolean {
  return t.stages.some((s) => s.id === 'bootstrap-control-plane' && s.status === 'ok');
}
