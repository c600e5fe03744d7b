// The specs layer: maps a path inside a bundle to the logical source it holds, whatever the
// installer release, nesting or packaging, and back (a source's path, for tests and the corpus
// layout). Layout differences live here and nowhere else.
import { gatherIdTime } from '../src/text/time.js';
import { CONTROL_PLANE_CONTAINER, type ContainerRuntime, type HostSelector, type LogRef, type SourceId } from '../src/model/source-id.js';

export { hostKey, type HostSelector } from '../src/model/source-id.js';

export type NetworkFile = 'ip-addr' | 'ip-route' | 'hostname' | 'resolv.conf' | 'hosts';

export type SourceSpec =
  | { kind: 'journal'; host: HostSelector; unit: string }
  | { kind: 'unit-status-journal'; host: HostSelector; unit: string }
  | { kind: 'unit-status'; host: HostSelector; unit: string }
  | { kind: 'failed-units'; host: HostSelector }
  | { kind: 'service-record'; host: HostSelector; service: string }
  | { kind: 'network'; host: HostSelector; file: NetworkFile }
  | { kind: 'container-log'; host: HostSelector; runtime: 'cri-o' | 'podman'; id: string; name?: string }
  | { kind: 'container-inspect'; host: HostSelector; runtime: 'cri-o' | 'podman'; id: string; name?: string }
  | { kind: 'control-plane-log'; host: HostSelector }
  | { kind: 'etcd-output'; host: HostSelector }
  | { kind: 'rendered-manifest' }
  | { kind: 'rendered-certificate' }
  | { kind: 'rendered-other' }
  | { kind: 'resource-json'; name: string }
  | { kind: 'resource-list'; name: 'nodes' | 'masters' }
  | { kind: 'resource-other'; name: string }
  | { kind: 'serial-log'; host: string }
  | { kind: 'clusterapi-log' }
  | { kind: 'gather-log' }
  | { kind: 'installer-log' };

export interface ClassifiedPath {
  spec?: SourceSpec;
  /** The path had the extra level of the single-node (bootstrap-in-place) layout. */
  bootstrapInPlace: boolean;
  /** The gather id from a `log-bundle-<ID>` segment, when present. */
  gatherId?: string;
  /** The path is laid out as `oc adm must-gather` writes (a hint when nothing else is found). */
  mustGather?: boolean;
  /** The path from its bundle anchor (`resources/nodes.json`), the same in every layout. */
  logicalPath?: string;
}

const BUNDLE_SEGMENT = /^(?:cluster-)?log-bundle(?:-(.+))?$/;
const ROOT_ANCHORS = new Set([
  'bootstrap',
  'control-plane',
  'resources',
  'rendered-assets',
  'serial',
  'clusterapi',
  'unit-status',
  'failed-units.txt',
  'gather.log',
]);
const NETWORK_FILES: Record<string, NetworkFile> = {
  'ip-addr.txt': 'ip-addr',
  'ip-route.txt': 'ip-route',
  'hostname.txt': 'hostname',
  'resolv.conf': 'resolv.conf',
  hosts: 'hosts',
  'hosts.txt': 'hosts',
};
/** The resources/ files bootlens parses, by file name. */
const RESOURCE_KINDS = new Set(['nodes', 'csr', 'clusteroperators', 'clusterversion', 'pods', 'events', 'machineconfigpools', 'machines']);
// `<name>-<id>` as installer-gather.sh names crictl files; podman files are `<id>` alone.
const NAMED_CONTAINER = /^(.+)-([0-9a-f]{12,64})$/;
const BARE_CONTAINER = /^([0-9a-f]{12,64})$/;

/** Strips archive-name segments and maps nested part archives onto their folder names. */
function logicalSegments(path: string): { segs: string[]; bootstrapInPlace: boolean; gatherId?: string } {
  const out: string[] = [];
  let bootstrapInPlace = false;
  let gatherId: string | undefined;
  for (const seg of path.split('/')) {
    if (seg === 'log-bundle-bootstrap') {
      bootstrapInPlace = true;
      continue;
    }
    if (/^serial-log-bundle/.test(seg)) {
      out.push('serial');
      continue;
    }
    if (/^clusterapi-log-bundle/.test(seg)) {
      out.push('clusterapi');
      continue;
    }
    const bundle = BUNDLE_SEGMENT.exec(seg);
    if (bundle) {
      if (bundle[1] && gatherId === undefined) gatherId = bundle[1];
      continue;
    }
    if (/^artifacts-/.test(seg)) continue;
    // A nested part archive folded in twice (`serial/serial/...`) counts once.
    if ((seg === 'serial' || seg === 'clusterapi') && out[out.length - 1] === seg) continue;
    out.push(seg);
  }
  return { segs: out, bootstrapInPlace, gatherId };
}

function stripExt(name: string, ext: string): string | undefined {
  return name.endsWith(ext) && name.length > ext.length ? name.slice(0, -ext.length) : undefined;
}

function containerSpec(file: string, host: HostSelector, defaultRuntime: 'cri-o' | 'podman'): SourceSpec | undefined {
  const stem = stripExt(file, '.log') ?? stripExt(file, '.inspect');
  if (!stem) return undefined;
  const kind = file.endsWith('.log') ? 'container-log' : 'container-inspect';
  const named = NAMED_CONTAINER.exec(stem);
  if (named) return { kind, host, runtime: defaultRuntime, name: named[1], id: named[2] };
  const bare = BARE_CONTAINER.exec(stem);
  // A bare id is a podman container: crictl files always carry the container's name.
  if (bare) return { kind, host, runtime: 'podman', id: bare[1] };
  return undefined;
}

function isEtcdOutput(file: string): boolean {
  const f = file.toLowerCase();
  return f.includes('etcd') && /member|endpoint|health/.test(f) && !f.endsWith('.inspect');
}

/** Files of one host's folder: the bootstrap host's `bootstrap/` or a master's `control-plane/<ip>/`. */
function hostFile(rest: string[], host: HostSelector): SourceSpec | undefined {
  const [dir, file, ...more] = rest;
  if (rest.length === 1) {
    if (dir === 'failed-units.txt') return { kind: 'failed-units', host };
    if (isEtcdOutput(dir)) return { kind: 'etcd-output', host };
    return undefined;
  }
  if (file === undefined) return undefined;
  switch (dir) {
    case 'journals': {
      const unit = more.length === 0 ? stripExt(file, '.log') : undefined;
      return unit ? { kind: 'journal', host, unit } : undefined;
    }
    case 'services': {
      const service = more.length === 0 ? stripExt(file, '.json') : undefined;
      return service ? { kind: 'service-record', host, service } : undefined;
    }
    case 'network': {
      const net = more.length === 0 ? NETWORK_FILES[file] : undefined;
      return net ? { kind: 'network', host, file: net } : undefined;
    }
    case 'unit-status': {
      if (more.length > 0) return undefined;
      const txt = stripExt(file, '.txt');
      if (txt) return { kind: 'unit-status', host, unit: txt.replace(/\.service$/, '') };
      const log = stripExt(file, '.log');
      if (log) return { kind: 'unit-status-journal', host, unit: log.replace(/\.service$/, '') };
      return undefined;
    }
    case 'containers':
      if (file === 'bootstrap-control-plane') return more.length > 0 ? { kind: 'control-plane-log', host } : undefined;
      if (more.length > 0) return undefined;
      // `etcd-member-<id>.log` is the 4.1-4.3 etcd container, not etcdctl output.
      return containerSpec(file, host, 'cri-o') ?? (isEtcdOutput(file) ? { kind: 'etcd-output', host } : undefined);
    case 'pods':
      return more.length === 0 ? containerSpec(file, host, 'podman') : undefined;
    default: {
      const last = rest[rest.length - 1];
      return isEtcdOutput(last) ? { kind: 'etcd-output', host } : undefined;
    }
  }
}

function resourceSpec(rest: string[]): SourceSpec | undefined {
  if (rest.length !== 1) return undefined;
  const file = rest[0];
  if (file === 'nodes.list') return { kind: 'resource-list', name: 'nodes' };
  if (file === 'masters.list') return { kind: 'resource-list', name: 'masters' };
  const json = stripExt(file, '.json');
  if (json && RESOURCE_KINDS.has(json)) return { kind: 'resource-json', name: json };
  return { kind: 'resource-other', name: file };
}

function renderedSpec(rest: string[]): SourceSpec {
  const file = rest[rest.length - 1] ?? '';
  if (/\.(ya?ml)$/i.test(file)) return { kind: 'rendered-manifest' };
  if (/\.(crt|pem|cert)$/i.test(file)) return { kind: 'rendered-certificate' };
  return { kind: 'rendered-other' };
}

/**
 * Classifies a logical path (nested archive paths already joined, e.g.
 * `log-bundle-X/control-plane/10.0.0.5/log-bundle-X/journals/kubelet.log`).
 */
export function classifyPath(path: string): ClassifiedPath {
  const { segs, bootstrapInPlace, gatherId } = logicalSegments(path);
  const result: ClassifiedPath = { bootstrapInPlace };
  if (gatherId) result.gatherId = gatherId;
  const base = segs[segs.length - 1] ?? '';
  if (base === '.openshift_install.log' || /^\.?openshift[_-]install.*\.log$/.test(base)) {
    result.spec = { kind: 'installer-log' };
    return result;
  }
  const at = segs.findIndex((s) => ROOT_ANCHORS.has(s));
  if (at < 0) {
    if (segs.includes('cluster-scoped-resources') || segs.includes('namespaces')) result.mustGather = true;
    return result;
  }
  const [anchor, ...rest] = segs.slice(at);
  result.logicalPath = segs.slice(at).join('/');
  const bootstrap: HostSelector = { role: 'bootstrap' };
  switch (anchor) {
    case 'gather.log':
      if (rest.length === 0) result.spec = { kind: 'gather-log' };
      break;
    case 'failed-units.txt':
      if (rest.length === 0) result.spec = { kind: 'failed-units', host: bootstrap };
      break;
    case 'unit-status':
      result.spec = hostFile(['unit-status', ...rest], bootstrap);
      break;
    case 'bootstrap':
      result.spec = hostFile(rest, bootstrap);
      break;
    case 'control-plane': {
      const [address, ...files] = rest;
      if (address && files.length > 0) result.spec = hostFile(files, { role: 'master', address });
      break;
    }
    case 'resources':
      result.spec = resourceSpec(rest);
      break;
    case 'rendered-assets':
      if (rest.length > 0) result.spec = renderedSpec(rest);
      break;
    case 'serial':
      if (rest.length > 0) {
        const host = base.replace(/\.(log|txt)$/, '').replace(/[-_.]?serial(-console)?$/i, '') || base;
        result.spec = { kind: 'serial-log', host };
      }
      break;
    case 'clusterapi':
      if (rest.length > 0 && /\.log$/.test(base)) result.spec = { kind: 'clusterapi-log' };
      break;
  }
  return result;
}

/** The log source a spec names; undefined for files that are not streamed logs. */
export function logSource(spec: SourceSpec): SourceId | undefined {
  switch (spec.kind) {
    case 'journal':
    case 'unit-status-journal':
      return { kind: spec.kind, host: spec.host, unit: spec.unit };
    case 'container-log':
      return { kind: 'container', host: spec.host, runtime: spec.runtime, ...(spec.name ? { container: spec.name } : {}) };
    case 'control-plane-log':
      return { kind: 'container', host: spec.host, container: CONTROL_PLANE_CONTAINER, runtime: 'cri-o' };
    case 'serial-log':
      return { kind: 'serial', console: spec.host };
    case 'clusterapi-log':
      return { kind: 'clusterapi' };
    case 'gather-log':
      return { kind: 'gather' };
    case 'installer-log':
      return { kind: 'installer' };
    default:
      return undefined;
  }
}

/**
 * The log a path holds, as the reader names it: its source id and the gather time its
 * `log-bundle-<ID>` segment gives; undefined for paths that are not streamed logs.
 */
export function logRefOf(path: string): LogRef | undefined {
  const cls = classifyPath(path);
  const source = cls.spec ? logSource(cls.spec) : undefined;
  if (!source) return undefined;
  const ref: LogRef = { file: path, source };
  const time = cls.gatherId ? gatherIdTime(cls.gatherId) : undefined;
  if (time !== undefined) ref.referenceTime = time;
  return ref;
}

/** A container id for paths made up from a name (tests, the corpus layout): stable per name. */
function madeUpId(name: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < name.length; i++) h = Math.imul(h ^ name.charCodeAt(i), 0x01000193) >>> 0;
  return h.toString(16).padStart(8, '0').repeat(8);
}

function hostDir(host: HostSelector | undefined): string {
  return !host || host.role === 'bootstrap' ? 'bootstrap' : `control-plane/${host.address}`;
}

/**
 * Where a source's file lives in a bundle, below `log-bundle-<ID>/` (the reverse of
 * `classifyPath`): the path the gather scripts write it to. Containers get a made-up id.
 */
export function pathOf(source: SourceId, runtime: ContainerRuntime = source.runtime ?? 'cri-o'): string {
  const dir = hostDir(source.host);
  switch (source.kind) {
    case 'journal':
      return `${dir}/journals/${source.unit ?? 'unknown'}.log`;
    case 'unit-status-journal':
      return `${dir}/unit-status/${source.unit ?? 'unknown'}.service.log`;
    case 'container': {
      const name = source.container ?? 'container';
      if (name === CONTROL_PLANE_CONTAINER) return `${dir}/containers/${CONTROL_PLANE_CONTAINER}/kube-apiserver.log`;
      return runtime === 'podman' ? `${dir}/pods/${name}-${madeUpId(name)}.log` : `${dir}/containers/${name}-${madeUpId(name)}.log`;
    }
    case 'serial':
      return `serial/${source.console ?? 'master-0'}-serial.log`;
    case 'clusterapi':
      return 'clusterapi/kube-apiserver.log';
    case 'gather':
      return 'gather.log';
    case 'installer':
      return '.openshift_install.log';
  }
}

/** Where installer-gather.sh writes a service record, below `log-bundle-<ID>/`. */
export function serviceRecordPath(host: HostSelector, service: string): string {
  return `${hostDir(host)}/services/${service}.json`;
}

/** Where installer-gather.sh writes `oc get <kind> -o json` (the file name it gives that list). */
export function resourceFilePath(file: string): string {
  return `resources/${file}.json`;
}
