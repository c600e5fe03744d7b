// The stage timeline: for each taxonomy stage, its status, times, hosts and the evidence that
// decided it. Built from the model alone, before any rule runs.
import type { StageState } from '../result/types.js';

export type { Evidence, StageState, StageStatus } from '../result/types.js';




export interface Timeline {
  stages: StageState[];
}
