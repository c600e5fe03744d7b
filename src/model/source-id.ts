// One name for "which log": the layout computes a SourceId once per path, and every log summary,
// line filter, line observer, rule source and the source → stage map speak it.

/** The host a file belongs to: the bootstrap host, or a master by its `control-plane/<address>/` folder. */
export type HostSelector = { role: 'bootstrap' } | { role: 'master'; address: string };

/** The kinds of streamed logs a bundle holds. */
export type LogKind =
  | 'journal'
  | 'unit-status-journal'
  | 'container'
  | 'serial'
  | 'gather'
  | 'installer'
  | 'clusterapi';

export type ContainerRuntime = 'cri-o' | 'podman';

/** The container name given to the logs of `bootstrap/containers/bootstrap-control-plane/`. */
export const CONTROL_PLANE_CONTAINER = 'bootstrap-control-plane';

/** Which log a file is: its kind, host, and unit or container. */
export interface SourceId {
  kind: LogKind;
  /** Undefined for bundle-wide logs (installer, gather, Cluster API) and serial consoles. */
  host?: HostSelector;
  /** Journal unit without `.service` (`bootkube`), for journals and unit-status journals. */
  unit?: string;
  /** Container name (`etcd`, `cvo-render`; `bootstrap-control-plane` for that folder), for container logs. */
  container?: string;
  /** Who ran the container: CRI-O (`crictl`, `containers/`) or podman (`pods/`). */
  runtime?: ContainerRuntime;
  /** Serial consoles: the machine the console belongs to, from the file name. */
  console?: string;
}

/** A log as the reader hands it to filters and observers: its path and its source. */
export interface LogRef {
  file: string;
  source: SourceId;
  /** The bundle's clock (gather time), for year-less journal times. */
  referenceTime?: number;
}

/** `bootstrap`, or the master's address. */
export function hostLabel(host: HostSelector): string {
  return host.role === 'bootstrap' ? 'bootstrap' : host.address;
}

/** A key per host, unique in a bundle (`control-plane/master/` is the single node's folder). */
export function hostKey(host: HostSelector): string {
  return host.role === 'bootstrap' ? 'bootstrap' : `master:${host.address}`;
}

/** Where a log sits, for people: the host label, or the console or bundle-wide log's kind. */
export function sourceHost(source: SourceId): string {
  if (source.host) return hostLabel(source.host);
  if (source.kind === 'serial') return `serial:${source.console ?? 'console'}`;
  return source.kind;
}

/** What a source is named by: the unit, the container, the console or the kind. */
export function sourceName(source: SourceId): string {
  return source.unit ?? source.container ?? source.console ?? source.kind;
}

/** One string per source, the same scheme everywhere (`bootstrap/journal/bootkube`). */
export function sourceKey(source: SourceId): string {
  return `${source.host ? hostKey(source.host) : source.kind}/${source.kind}/${sourceName(source)}`;
}

/** The id of a line filter: who registered it and for what. The one place ids are made. */
export function filterId(owner: string, name?: string): string {
  return name === undefined ? owner : `${owner}#${name}`;
}
