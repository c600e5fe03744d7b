// Collects parsed pieces into the Bundle model while the archive is read, then freezes it.
import type {
  Bundle,
  BundleMeta,
  CertificateInfo,
  ClusterResources,
  Container,
  GatherLog,
  Host,
  InstallConfigFacts,
  InstallerLog,
  LogSummary,
  NetworkInfo,
  ReadByContent,
  ReadProblem,
} from '../model/types.js';
import { hostKey, type HostSelector } from '../model/source-id.js';
import { byCodeUnits } from '../util/byte-order.js';

/** A map keyed by names from the bundle: a null prototype keeps `__proto__` a plain key. */
function dict<T>(): Record<string, T> {
  return Object.create(null) as Record<string, T>;
}

function newHost(sel: HostSelector): Host {
  return {
    role: sel.role,
    address: sel.role === 'bootstrap' ? 'bootstrap' : sel.address,
    journals: dict(),
    unitJournals: dict(),
    unitStatus: dict(),
    serviceRecords: dict(),
    containers: [],
    controlPlaneLogs: [],
    failedUnits: [],
    failedUnitsListed: false,
    staticPods: [],
  };
}

function emptyNetwork(): NetworkInfo {
  return { interfaces: [], routes: [], nameservers: [], searchDomains: [], hosts: [], sources: [] };
}

/**
 * Freezes the model so rules can only read it. Walks arrays by index and objects by key, and
 * steps only into objects: no array of values is made for each of a bundle's thousands of kept
 * lines (those arrays were 36 of the 420 MB that analyzing eight triage bundles allocated).
 */
function deepFreeze<T>(value: T): T {
  if (typeof value !== 'object' || value === null || Object.isFrozen(value)) return value;
  Object.freeze(value);
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const v: unknown = value[i];
      if (typeof v === 'object' && v !== null) deepFreeze(v);
    }
  } else {
    const o = value as Record<string, unknown>;
    for (const k in o) {
      const v = o[k];
      if (typeof v === 'object' && v !== null) deepFreeze(v);
    }
  }
  return value;
}

export class BundleBuilder {
  private readonly hosts = new Map<string, Host>();
  private readonly containers = new Map<string, Container>();
  readonly problems: ReadProblem[] = [];
  cluster: ClusterResources | undefined;
  renderedFiles: string[] = [];
  certificates: CertificateInfo[] = [];
  installConfig: InstallConfigFacts | undefined;
  readonly serialLogs: LogSummary[] = [];
  readonly clusterApiLogs: LogSummary[] = [];
  gatherLog: GatherLog | undefined;
  installerLog: InstallerLog | undefined;
  bootstrapInPlace = false;
  gatherId: string | undefined;
  otherFiles = 0;
  /** Files outside the layout read by their content, and as what. */
  readonly readByContent: ReadByContent[] = [];

  host(sel: HostSelector): Host {
    const key = hostKey(sel);
    let host = this.hosts.get(key);
    if (!host) {
      host = newHost(sel);
      this.hosts.set(key, host);
    }
    return host;
  }

  network(sel: HostSelector): NetworkInfo {
    const host = this.host(sel);
    host.network ??= emptyNetwork();
    return host.network;
  }

  /** The container with this id on this host, created on first sight (its log or its inspect). */
  container(sel: HostSelector, runtime: Container['runtime'], id: string, name?: string): Container {
    const key = `${hostKey(sel)}/${runtime}/${id}`;
    let c = this.containers.get(key);
    if (!c) {
      c = { runtime, id };
      if (name) c.name = name;
      this.containers.set(key, c);
      this.host(sel).containers.push(c);
    }
    return c;
  }

  clusterResources(): ClusterResources {
    this.cluster ??= { files: [] };
    return this.cluster;
  }

  problem(p: ReadProblem): void {
    this.problems.push(p);
  }

  /** The model, frozen; `settle` gets the last word on it first (the content clock). */
  build(meta: Omit<BundleMeta, 'gatherId' | 'layout' | 'otherFiles'> & { nestedArchives: string[] }, settle?: (bundle: Bundle) => void): Bundle {
    const { nestedArchives, ...rest } = meta;
    const masters = [...this.hosts.values()]
      .filter((h) => h.role === 'master')
      .sort((a, b) => a.address.localeCompare(b.address, 'en', { numeric: true }));
    for (const host of this.hosts.values()) {
      host.hostname ??= host.network?.hostname;
      host.containers.sort((a, b) => byCodeUnits(a.name ?? '', b.name ?? '') || byCodeUnits(a.id, b.id));
    }
    const bundle: Bundle = {
      meta: {
        ...rest,
        otherFiles: this.otherFiles,
        layout: {
          bootstrapInPlace: this.bootstrapInPlace,
          nestedArchives,
          mastersMissing: masters.length === 0,
          ...(this.readByContent.length > 0 ? { readByContent: this.readByContent } : {}),
        },
      },
      masters,
      serialLogs: this.serialLogs,
      clusterApiLogs: this.clusterApiLogs,
      problems: this.problems,
    };
    if (this.gatherId) bundle.meta.gatherId = this.gatherId;
    const bootstrap = this.hosts.get('bootstrap');
    if (bootstrap) bundle.bootstrap = bootstrap;
    if (this.cluster) bundle.cluster = this.cluster;
    if (this.renderedFiles.length > 0 || this.certificates.length > 0) {
      bundle.renderedAssets = { files: this.renderedFiles, certificates: this.certificates, ...(this.installConfig ? { installConfig: this.installConfig } : {}) };
    }
    if (this.gatherLog) bundle.gatherLog = this.gatherLog;
    if (this.installerLog) bundle.installerLog = this.installerLog;
    settle?.(bundle);
    return deepFreeze(bundle);
  }
}
