// podman's journald event lines (container create/init/start/died/remove, image pull) that
// every `podman run` on the hosts leaves in the journal of the unit that ran it.
import type { Journal } from './journal.js';
import { podmanEvent } from './log-formats.js';
import type { Prng } from './prng.js';
import type { Micros } from './time.js';

const ADJ = ['admiring', 'angry', 'awesome', 'brave', 'busy', 'charming', 'clever', 'competent', 'condescending', 'dazzling', 'determined', 'eager', 'ecstatic', 'elegant', 'festive', 'focused', 'gifted', 'gracious', 'happy', 'hopeful', 'infallible', 'jolly', 'keen', 'laughing', 'loving', 'magical', 'modest', 'nifty', 'nostalgic', 'optimistic', 'peaceful', 'practical', 'quirky', 'relaxed', 'reverent', 'romantic', 'serene', 'sharp', 'silly', 'stoic', 'sweet', 'tender', 'trusting', 'upbeat', 'vibrant', 'wizardly', 'zealous'];
const NAMES = ['agnesi', 'albattani', 'bardeen', 'bell', 'blackwell', 'bohr', 'brattain', 'cannon', 'chandrasekhar', 'curie', 'darwin', 'dijkstra', 'einstein', 'elion', 'euler', 'feynman', 'galileo', 'goldberg', 'hawking', 'heisenberg', 'hodgkin', 'hopper', 'jang', 'kalam', 'keller', 'knuth', 'lamport', 'leakey', 'lovelace', 'mayer', 'mclean', 'morse', 'napier', 'newton', 'noether', 'pasteur', 'payne', 'perlman', 'ritchie', 'sammet', 'shannon', 'sinoussi', 'swanson', 'tesla', 'torvalds', 'turing', 'wescoff', 'wilson', 'wozniak', 'yalow'];

/** A docker-style random container name. */
export function randomName(p: Prng): string {
  return `${p.pick(ADJ)}_${p.pick(NAMES)}`;
}

export interface PodmanRun {
  image: string;
  name?: string;
  labels: string;
  id: string;
}

/** Logs the lifecycle of one short `podman run --rm` under the journal of the calling unit. */
export function podmanRunEvents(j: Journal, p: Prng, pid: number, t: Micros, run: PodmanRun, durationUs: number, opts: { rm?: boolean; exitCode?: number } = {}): Micros {
  // Go's monotonic reading `m=+` counts from the podman process's start.
  const base = p.int(30_000, 120_000);
  const uptimeAt = (at: Micros): number => (base + at - t) / 1_000_000;
  const name = run.name ?? randomName(p);
  const attrs = `(image=${run.image}, name=${name}${run.labels ? `, ${run.labels}` : ''})`;
  const ev = (dt: number, what: string): void => {
    const at = t + dt;
    j.add(at, 'podman', podmanEvent(at, p.int(0, 999), uptimeAt(at) + p.int(0, 999) / 1e9, what), pid);
  };
  ev(0, `container create ${run.id} ${attrs}`);
  ev(p.int(20_000, 90_000), `container init ${run.id} ${attrs}`);
  ev(p.int(90_000, 140_000), `container start ${run.id} ${attrs}`);
  ev(p.int(140_000, 160_000), `container attach ${run.id} ${attrs}`);
  const end = t + 160_000 + durationUs;
  const died = `container died ${run.id} ${attrs.replace(')', opts.exitCode ? `, exitCode=${opts.exitCode})` : ')')}`;
  j.add(end, 'podman', podmanEvent(end, p.int(0, 999), uptimeAt(end) + p.int(0, 999) / 1e9, died), pid);
  if (opts.rm !== false) j.add(end + 40_000, 'podman', podmanEvent(end + 40_000, p.int(0, 999), uptimeAt(end + 40_000) + p.int(0, 999) / 1e9, `container remove ${run.id} ${attrs}`), pid);
  return end + 50_000;
}

/** Labels podman prints for containers of the release image. */
export function releaseLabels(version: string, baseDigest: string): string {
  return `io.openshift.release=${version}, io.openshift.release.base-image-digest=sha256:${baseDigest}`;
}
