// What a failure module provides: the step it blocks, the words it puts in the writers'
// mouths while that step is stuck, world and timeline adjustments, and its own evidence.
import type { World } from '../model.js';
import type { FailureHooks, Story } from '../story.js';
import type { Step, Timeline } from '../timeline.js';

export interface Failure {
  block?: Step;
  /** Masters the block applies to (default: all). */
  blockedMasters?: number[];
  singleNode?: boolean;
  hooks?: FailureHooks;
  /** Adjusts the world (clocks, proxies) before the timeline is computed. */
  prepare?(w: World): void;
  /** Adjusts the computed timeline. */
  adjust?(tl: Timeline, w: World): void;
  /** Adds the failure's own lines, files and facts after the baseline writers ran; records evidence. */
  apply(s: Story): void;
}

/** The release image's digest part (`sha256:...`). */
export function digestOf(image: string): string {
  const at = image.indexOf('@');
  return at >= 0 ? image.slice(at + 1) : image;
}

/** `quay.io/openshift-release-dev/ocp-release` of `quay.io/...@sha256:...`. */
export function repoOf(image: string): string {
  const at = image.indexOf('@');
  return at >= 0 ? image.slice(0, at) : image.replace(/:[^/]+$/, '');
}

export function mirrorRef(s: Story, image: string): string {
  return `${s.w.spec.mirror}/ocp4/openshift4@${digestOf(image)}`;
}

/** "tls: failed to verify certificate: " on Go 1.20+ releases. */
export function tlsPrefix(s: Story): string {
  return s.w.profile.goTlsPrefix ? 'tls: failed to verify certificate: ' : '';
}
