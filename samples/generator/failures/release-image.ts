// Failures pulling the release image on the bootstrap host: the pull secret rejected, the
// mirror's certificate not trusted, the proxy refusing connections.
import type { Story } from '../story.js';
import { digestOf, mirrorRef, repoOf, tlsPrefix, type Failure } from './failure.js';

function trying(s: Story): string[] {
  return s.w.release.minor >= 14 ? [`Trying to pull ${s.w.release.releaseImage}...`] : [];
}

function releaseEvidence(s: Story, contains: string): void {
  s.evidence.push({ host: 'bootstrap', rel: 'bootstrap/journals/release-image.log', contains });
  if (s.w.profile.serviceRecords) s.evidence.push({ host: 'bootstrap', rel: 'bootstrap/services/release-image.json', contains: '"stage": "pull-release-image"' });
}

export const releasePullUnauthorized: Failure = {
  block: 'release-pull',
  hooks: {
    mastersUnreachable: true,
    releasePullSeconds: [1, 4],
    releasePullError: (s) => {
      const img = s.w.release.releaseImage;
      return [...trying(s), `Error: initializing source docker://${img}: reading manifest ${digestOf(img)} in ${repoOf(img)}: unauthorized: authentication required`];
    },
  },
  apply(s) {
    releaseEvidence(s, 'unauthorized: authentication required');
  },
};

export const releaseMirrorX509: Failure = {
  block: 'release-pull',
  hooks: {
    mastersUnreachable: true,
    releasePullSeconds: [30, 33],
    releasePullError: (s) => {
      const img = s.w.release.releaseImage;
      const m = s.w.spec.mirror as string;
      return [...trying(s), `Error: initializing source docker://${img}: (Mirrors also failed: [${mirrorRef(s, img)}: pinging container registry ${m}: Get "https://${m}/v2/": ${tlsPrefix(s)}x509: certificate signed by unknown authority]): ${img}: pinging container registry quay.io: Get "https://quay.io/v2/": dial tcp 34.225.41.113:443: i/o timeout`];
    },
  },
  apply(s) {
    releaseEvidence(s, 'x509: certificate signed by unknown authority');
  },
};

export const releaseProxyRefused: Failure = {
  block: 'release-pull',
  hooks: {
    mastersUnreachable: true,
    releasePullSeconds: [1, 3],
    releasePullError: (s) => {
      const img = s.w.release.releaseImage;
      const proxy = new URL(s.w.spec.proxy as string);
      return [...trying(s), `Error: initializing source docker://${img}: pinging container registry quay.io: Get "https://quay.io/v2/": proxyconnect tcp: dial tcp ${proxy.hostname.startsWith('10.') ? proxy.hostname : '10.40.0.15'}:${proxy.port}: connect: connection refused`];
    },
  },
  apply(s) {
    releaseEvidence(s, 'proxyconnect tcp: dial tcp');
  },
};
