// Service-record stage names (from bootkube.sh and its siblings) mapped onto taxonomy stages,
// as taxonomy.md lists them. Unknown `*-bootstrap` names of newer releases map to render.
import type { StageId } from '../taxonomy.js';

/** Services whose whole run is the release-image stage. */
export const RELEASE_IMAGE_SERVICES = ['release-image', 'release-image-pivot', 'node-image-pull'];

/**
 * The taxonomy stage of a bootkube record stage; undefined for names bootlens does not know
 * (reported, not guessed). `cb-bootstrap` depends on whether the bootstrap API answered.
 */
export function bootkubeStage(name: string, bootstrapApiAnswered: boolean): StageId | undefined {
  switch (name) {
    case 'wait-for-etcd':
      return 'bootstrap-etcd';
    case 'cb-bootstrap':
      return bootstrapApiAnswered ? 'production-control-plane' : 'bootstrap-control-plane';
    case 'wait-for-ceo':
      return 'etcd-scaling';
    case 'cvo-overrides':
    case 'restore-cvo-overrides':
      // Restoring the CVO overrides is the hand-over step of bootstrap-complete.
      return 'bootstrap-complete';
    case 'openshift-manifests':
      return 'render';
    default:
      // konnectivity-certs, konnectivity-server-bootstrap, ... prepare the bootstrap API.
      if (name.startsWith('konnectivity')) return 'bootstrap-control-plane';
      return name.endsWith('-bootstrap') ? 'render' : undefined;
  }
}
