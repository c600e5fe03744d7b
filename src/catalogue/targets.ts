// What a failed connection was to, read from the message: the URL, `dial tcp host:port`, the name
// looked up, the registry pinged or the proxy connected through, nearest before the error. The
// target, not the words of the error, decides its category: a refused connection to a registry is
// the registry's, to a proxy the proxy's, to 172.30.0.1:443 the pod network's.
import type { TargetKind } from './types.js';

/** The text speaks of pulling an image (podman, CRI-O, kubelet, containers/image). */
const PULLING =
  /pull|manifest|docker:\/\/|pinging (?:docker|container) registry|\/v2\/|blob|registry|quay\.io|Trying to pull|image source|initializing source|ImagePull|ErrImage/i;
/** The text speaks of fetching a host's ignition from the machine-config server. */
const IGNITION_FETCH = /:2262[34]\b|config\/(?:master|worker)|ignition/i;

/**
 * Mentions of where a connection went: a proxy (`proxyconnect`), a DNS server (`lookup x on
 * 10.0.0.1:53: <error>`), a pinged registry, a URL, a dial. One regex, scanned left to right.
 */
const MENTION =
  /proxyconnect|lookup (\S+?) on (\S+?):53: (?=read udp|dial udp|write udp|i\/o timeout|no such host|server misbehaving|connection refused)|pinging (?:docker|container) registry ([\w.-]+(?::\d+)?)|https?:\/\/([\w.-]+|\[[0-9a-fA-F:]+\])(?::(\d+))?(\/[^\s"']*)?|dial (?:tcp|udp)\d? (?:\[([0-9a-fA-F:]+)\]|([\w.-]+)):(\d+)/g;

/** How far before the error its target is looked for: the link it is in and the few before. */
const LOOK_BACK = 600;

const REGISTRY_HOST = /^(?:quay\.io|docker\.io|registry-1\.docker\.io|gcr\.io|ghcr\.io|[\w.-]*registry[\w.-]*|[\w-]+\.azurecr\.io|[\w.-]*mirror[\w.-]*|cdn\d*\.quay\.io|[\w.-]*\.quay\.io)$/i;
const CLOUD_HOST = /amazonaws\.com|\.azure\.(?:com|net)|windows\.net|microsoftonline\.com|googleapis\.com|cloud\.ibm\.com|\.ovirt|vcenter|nutanix|openstack/i;
const INGRESS_HOST = /^(?:oauth-openshift|console-openshift-console|downloads-openshift-console|canary-openshift-ingress-canary|[\w-]+)\.apps\./i;

/** The kind of an address: a host name or IP and a port, and the URL path when there was one. */
export function kindOfAddress(host: string, port: number | undefined, path = ''): TargetKind {
  const h = host.toLowerCase();
  // The host's own service (the bootstrap API on localhost:6443, etcd on 127.0.0.1:2379): nothing
  // crossed a network, so a refusal says the service is not up.
  if (h === 'localhost' || h === '::1' || h.startsWith('127.')) return 'local';
  if (port === 2379 || port === 2380 || /^etcd-\d/.test(h)) return 'etcd';
  if (port === 22623 || port === 22624) return 'machine-config-server';
  if (h.startsWith('api-int.')) return 'api-int';
  if (h.startsWith('api.') || port === 6443) return 'api';
  if ((h === '172.30.0.1' && (port === 443 || port === undefined)) || h.startsWith('kubernetes.default')) return 'service-network';
  if (INGRESS_HOST.test(h)) return 'ingress';
  if (CLOUD_HOST.test(h)) return 'cloud-api';
  if (REGISTRY_HOST.test(h) || path.startsWith('/v2/')) return 'registry';
  return 'other';
}

/**
 * The target of the connection an error at `pos` of `text` failed on: the nearest mention before
 * it that says what it is, else the operation the whole text speaks of (pulling an image,
 * fetching ignition), else `other`.
 */
export function targetAt(text: string, pos: number): TargetKind {
  const from = Math.max(0, pos - LOOK_BACK);
  const before = text.slice(from, pos);
  const kinds: TargetKind[] = [];
  MENTION.lastIndex = 0;
  for (let m = MENTION.exec(before); m; m = MENTION.exec(before)) {
    if (m[0] === 'proxyconnect') kinds.push('proxy');
    else if (m[1] !== undefined) kinds.push('dns-server');
    else if (m[3] !== undefined) kinds.push('registry');
    else if (m[4] !== undefined) kinds.push(kindOfAddress(m[4].replace(/^\[|\]$/g, ''), m[5] ? Number(m[5]) : undefined, m[6] ?? ''));
    else kinds.push(kindOfAddress(m[7] ?? m[8] ?? '', Number(m[9])));
  }
  // A proxy in the way, or a DNS server that did not answer, is what failed, whatever was asked for.
  for (let i = kinds.length - 1; i >= 0; i--) if (kinds[i] !== 'other') return kinds[i];
  if (PULLING.test(text)) return 'registry';
  if (IGNITION_FETCH.test(text)) return 'machine-config-server';
  return 'other';
}
