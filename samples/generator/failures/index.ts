// The failure modules by name.
import type { FailureName } from '../model.js';
import { apiserverOom, bootstrapClockBehind, bootstrapDiskFull, bootstrapEtcdSlowDisk, crioOptCni, localhostCertExpired, mirrorManifestUnknown } from './bootstrap-host.js';
import { apiIntDns, cvoOverridesLb, etcdPeerPortBlocked, healthy, mastersImagePullTimeout, mcsPortBlocked, ovnNoGateway, snoConsoleDegraded, workerCsrPending } from './cluster.js';
import type { Failure } from './failure.js';
import { releaseMirrorX509, releaseProxyRefused, releasePullUnauthorized } from './release-image.js';

export const FAILURES: Record<FailureName, Failure> = {
  none: healthy,
  'release-pull-unauthorized': releasePullUnauthorized,
  'release-mirror-x509': releaseMirrorX509,
  'release-proxy-refused': releaseProxyRefused,
  'crio-opt-cni': crioOptCni,
  'mirror-manifest-unknown': mirrorManifestUnknown,
  'bootstrap-disk-full': bootstrapDiskFull,
  'bootstrap-etcd-slow-disk': bootstrapEtcdSlowDisk,
  'bootstrap-clock-behind': bootstrapClockBehind,
  'localhost-cert-expired': localhostCertExpired,
  'apiserver-oom': apiserverOom,
  'api-int-dns': apiIntDns,
  'mcs-port-blocked': mcsPortBlocked,
  'masters-image-pull-timeout': mastersImagePullTimeout,
  'ovn-no-gateway': ovnNoGateway,
  'etcd-peer-port-blocked': etcdPeerPortBlocked,
  'cvo-overrides-lb': cvoOverridesLb,
  'worker-csr-pending': workerCsrPending,
  'sno-console-degraded': snoConsoleDegraded,
};
