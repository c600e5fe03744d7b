// Assembles what installer-gather.sh and installer-masters-gather.sh collected into folder
// trees (gather.log, failed units and their status, journals, service records, network,
// containers, rendered assets, resources, the masters' parts) and places the masters' parts
// as folders, nested archives, or empty folders when SSH to them failed.
import { tarGzProducer } from './archive.js';
import type { HostLogs } from './host-logs.js';
import { crictlInspect, podmanInspect } from './inspect.js';
import { klog } from './log-formats.js';
import { masterUnits } from './masters.js';
import { ipAddr, ipRoute, netstat, resolvConf } from './network.js';
import { renderedAssets } from './rendered.js';
import { emptyResources, writeResources } from './resources.js';
import type { EvidenceRef, Story } from './story.js';
import { failedUnitsText, statusText } from './systemd.js';
import { epochSeconds, journalShort, SECOND } from './time.js';
import { Tree } from './tree.js';

/** Journals installer-gather.sh collects on the bootstrap host, by release. */
export function bootstrapUnits(s: Story): string[] {
  const u = ['release-image', 'crio-configure', 'bootkube', 'kubelet', 'crio', 'approve-csr', 'ironic', 'master-bmh-update'];
  if (s.w.profile.releaseImageDownloadJournal) u.splice(1, 0, 'release-image-download');
  return u;
}

function journalOpts(s: Story, end = s.tl.gather): { header?: { begin: number; end: number } } {
  return s.w.profile.journalHeader ? { header: { begin: s.w.t0, end } } : {};
}

/** failed-units.txt and unit-status/ of one host. */
function failedUnits(s: Story, h: HostLogs, t: Tree, prefix: string): void {
  t.add(`${prefix}failed-units.txt`, failedUnitsText(h.failedUnits));
  t.dir(`${prefix}unit-status`);
  for (const u of h.failedUnits) {
    const j = h.journal(u.unit);
    const tail = j.events
      .filter((e) => (e.boot ?? 0) === 0 && e.t <= s.tl.gather)
      .sort((a, b) => a.t - b.t)
      .slice(-10)
      .map((e) => `${journalShort(e.t + h.host.clockOffset)} ${h.host.hostname} ${e.ident}${e.pid !== undefined ? `[${e.pid}]` : ''}: ${e.msg.split('\n')[0]}`);
    const last = j.lastEventTime() ?? s.tl.gather;
    const mainPid = [...j.events].filter((e) => e.ident !== 'systemd' && e.pid !== undefined && (e.boot ?? 0) === 0).sort((a, b) => a.t - b.t).pop()?.pid;
    t.add(
      `${prefix}unit-status/${u.unit}.service.txt`,
      statusText({
        modern: s.w.release.minor >= 13,
        unit: u.unit,
        path: u.unit === 'crio' || u.unit === 'kubelet' ? `/etc/systemd/system/${u.unit}.service; ${u.unit === 'crio' ? 'disabled' : 'enabled'}; preset: disabled` : `/etc/systemd/system/${u.unit}.service`,
        enabled: u.unit === 'crio' || u.unit === 'kubelet' ? '' : undefined,
        since: last,
        now: s.tl.gather,
        pid: mainPid ?? h.pid(u.unit === 'bootkube' ? 'bootkube.sh' : u.unit),
        exec: u.unit === 'bootkube' ? '/usr/local/bin/bootkube.sh' : u.unit === 'crio' ? '/usr/bin/crio $CRIO_CONFIG_OPTIONS $CRIO_RUNTIME_OPTIONS $CRIO_STORAGE_OPTIONS $CRIO_NETWORK_OPTIONS $CRIO_METRICS_OPTIONS' : `/usr/local/bin/${u.unit}.sh`,
        status: u.unit === 'bootkube' ? 1 : 1,
        cpu: `${h.prng.fork(`cpu/${u.unit}`).int(1, 80)}.${h.prng.fork(`cpums/${u.unit}`).int(100, 999)}s`,
        tail,
      }).replace('; )', ')'),
    );
    t.add(`${prefix}unit-status/${u.unit}.service.log`, j.render({ allBoots: true, ...journalOpts(s) }, s.tl.gather));
  }
}

function containersInto(h: HostLogs, t: Tree, dir: string, gather: number): void {
  t.dir(dir);
  for (const c of h.containers) {
    t.add(`${dir}/${c.name}-${c.id}.log`, c.log.render(gather));
    t.add(`${dir}/${c.name}-${c.id}.inspect`, crictlInspect(c));
  }
}

/** The bootstrap host's part (the artifacts directory of installer-gather.sh). */
export function bootstrapTree(s: Story): Tree {
  const { w } = s;
  const t = new Tree();
  failedUnits(s, s.boot, t, '');
  if (w.profile.serviceRecords) {
    t.dir('bootstrap/services');
    for (const [name, r] of s.records) t.add(`bootstrap/services/${name}.json`, r.render(), 'root');
  }
  for (const u of bootstrapUnits(s)) t.add(`bootstrap/journals/${u}.log`, s.boot.journal(u).render(journalOpts(s, s.bootUntil), s.bootUntil));
  if (w.profile.bootstrapNetwork) {
    const p = s.boot.prng.fork('network');
    const vip = w.spec.platform === 'vsphere' || w.spec.platform === 'baremetal' ? (s.tl.apiUp !== undefined && s.tl.bootkubeComplete === undefined ? w.apiVip : undefined) : undefined;
    t.add('bootstrap/network/ip-addr.txt', ipAddr(w, w.bootstrap, p, { vip }));
    t.add('bootstrap/network/ip-route.txt', ipRoute(w, w.bootstrap));
    t.add('bootstrap/network/hostname.txt', `${w.bootstrap.hostname}\n`);
    t.add('bootstrap/network/resolv.conf', resolvConf(w), 'core');
  }
  containersInto(s.boot, t, 'bootstrap/containers', s.bootUntil);
  for (const [rel, log] of s.boot.extra) t.add(`bootstrap/${rel}`, typeof log === 'string' ? log : log.render(s.bootUntil), 'root');
  t.dir('bootstrap/pods');
  for (const c of s.boot.podman) {
    const base = w.profile.podmanNamedFiles ? `${c.name}-${c.id.slice(0, 12)}` : c.id.slice(0, 12);
    t.add(`bootstrap/pods/${base}.log`, c.log.render(s.bootUntil));
    t.add(`bootstrap/pods/${base}.inspect`, podmanInspect(c));
  }
  t.graft('rendered-assets', renderedAssets(s));
  t.dir('resources');
  const files = new Map<string, string | Buffer>();
  const sno = w.spec.masterLayout === 'single-node';
  if (sno || s.cluster.apiAtGather) writeResources(s, files, sno ? s.bootUntil : undefined);
  else if (!w.profile.resourcesOnlyWhenUp) emptyResources(files);
  for (const [k, v] of files) t.add(k, v);
  t.dir('control-plane');
  return t;
}

/** One master's part (the artifacts directory of installer-masters-gather.sh). */
export function masterTree(s: Story, i: number): Tree {
  const { w } = s;
  const h = s.masters[i];
  const m = w.masters[i];
  const t = new Tree();
  failedUnits(s, h, t, '');
  const opts = journalOpts(s);
  for (const u of masterUnits(s)) t.add(`journals/${u}.log`, h.journal(u).render(opts, s.tl.gather));
  const p = h.prng.fork('network');
  t.add('network/ip-addr.txt', ipAddr(w, m, p, { ovn: s.tl.masterReady[i] !== undefined }));
  t.add('network/ip-route.txt', ipRoute(w, m, { noDefault: w.spec.failure === 'ovn-no-gateway' }));
  t.add('network/hostname.txt', `${m.hostname}\n`);
  if (w.profile.masterExtras) t.add('network/netstat.txt', netstat(m, p, h.host.pids['kubelet'] ?? 1600));
  t.add('network/resolv.conf', resolvConf(w));
  containersInto(h, t, 'containers', s.tl.gather);
  if (w.profile.masterExtras) {
    t.add('rpm-ostree/status', `State: idle\nDeployments:\n* ostree-unverified-registry:${w.release.images['rhel-coreos']}\n                   Digest: ${w.release.images['rhel-coreos'].split('@')[1]}\n                  Version: ${w.release.osVersion} (${w.release.osVersion.split('.')[2]})\n\n  ${w.release.osVersion.split('-')[0]}\n                  Version: ${w.release.osVersion} (${w.release.osVersion.split('.')[2]})\n`);
    t.add('rpm-ostree/history', `${journalShort((s.tl.masterBooted[i] ?? s.tl.gather) - 300 * SECOND)} UTC (${Math.round((s.tl.gather - (s.tl.masterBooted[i] ?? s.tl.gather)) / 60 / SECOND)} minutes ago)\n  BootTimestamp: ${journalShort(s.tl.masterBooted[i] ?? s.tl.gather)}\n       Version: ${w.release.osVersion}\n`);
  }
  return t;
}

/** gather.log: what installer-gather.sh printed, with oc and ssh errors where they happened. */
export function gatherLog(s: Story, opts: { apiAnswered: boolean; kubeconfig: string; masterIps: string[]; reachable: boolean; sno?: boolean }): string {
  const { w } = s;
  const lines: string[] = [];
  const p = w.prng.fork('gather-log');
  if (w.profile.serviceRecords) lines.push('Gathering bootstrap service records ...');
  // On the single node after its reboot there is no bootstrap state left to copy.
  if (opts.sno && w.profile.serviceRecords) lines.push("cp: cannot stat '/var/log/openshift/*': No such file or directory");
  lines.push('Gathering bootstrap systemd summary ...', 'Gathering bootstrap failed systemd unit status ...', 'Gathering bootstrap journals ...');
  if (w.profile.bootstrapNetwork) lines.push('Gathering bootstrap networking ...');
  lines.push('Gathering bootstrap containers ...');
  if (opts.sno) lines.push("cp: cannot stat '/var/log/bootstrap-control-plane/': No such file or directory");
  lines.push('Gathering rendered assets...');
  if (opts.sno) lines.push("cp: cannot stat '/var/opt/openshift/': No such file or directory", 'rm: missing operand', "Try 'rm --help' for more information.", 'rm: missing operand', "Try 'rm --help' for more information.");
  if (w.profile.gatherKubeconfigLine) lines.push(`Using ${opts.kubeconfig} as KUBECONFIG`);
  lines.push('Gathering cluster resources ...');
  if (!opts.apiAnswered) {
    const server = opts.kubeconfig.includes('bootstrap-secrets') ? 'localhost:6443' : `${w.apiIntName}:6443`;
    const addr = opts.kubeconfig.includes('bootstrap-secrets') ? '[::1]:6443' : `${w.apiVip}:6443`;
    for (let i = 0; i < 24; i++) {
      const t = s.tl.gather + (i * 20 + p.int(0, 19)) * 1000;
      if (w.release.minor >= 12 && p.chance(0.5)) lines.push(klog(t, 'E', p.int(3000, 60000), 'memcache.go:265', `couldn't get current server API group list: Get "https://${server}/api?timeout=5s": dial tcp ${addr}: connect: connection refused`));
      lines.push(`The connection to the server ${server} was refused - did you specify the right host or port?`);
    }
  }
  lines.push(...s.gatherNotes);
  lines.push('Waiting for logs ...');
  if (opts.sno) {
    lines.push('Including existing bootstrap bundle /var/log/log-bundle-bootstrap.tar.gz', 'Gather remote logs');
    lines.push('Gathering master systemd summary ...', 'Gathering master failed systemd unit status ...', 'Gathering master journals ...', 'Gathering master networking ...', 'Gathering master containers ...', 'Waiting for logs ...');
    return `${lines.join('\n')}\n`;
  }
  lines.push('Gather remote logs');
  if (opts.masterIps.length === 0) lines.push('No masters found!');
  for (const ip of opts.masterIps) {
    lines.push(`Collecting info from ${ip}`);
    if (!opts.reachable) {
      const how = p.pick(['Connection timed out', 'No route to host', 'Connection refused']);
      lines.push(`ssh: connect to host ${ip} port 22: ${how}`, 'lost connection', `ssh: connect to host ${ip} port 22: ${how}`, `ssh: connect to host ${ip} port 22: ${how}`, 'lost connection');
      continue;
    }
    lines.push(`Warning: Permanently added '${ip}' (ED25519) to the list of known hosts.`);
    lines.push('Gathering master systemd summary ...', 'Gathering master failed systemd unit status ...', 'Gathering master journals ...', 'Gathering master networking ...', 'Gathering master containers ...');
    if (w.profile.masterExtras) lines.push('Gathering master rpm-ostree info ...');
    lines.push('Waiting for logs ...');
  }
  return `${lines.join('\n')}\n`;
}

export interface Packaged {
  /** Builds the outer archive's tar entries (re-runnable). */
  entries: () => ReturnType<Tree['entries']>;
  /** The path in the bundle of an evidence or secret reference. */
  resolve: (ref: Pick<EvidenceRef, 'host' | 'rel'>) => string;
  archiveName: string;
}

const CORE: { core: [number, number] } = { core: [1000, 1000] };

/** Places the parts and returns the outer archive's entries and path resolver. */
export function packageBundle(s: Story): Packaged {
  const { w, tl } = s;
  const id = w.gatherId;
  const root = `log-bundle-${id}`;
  const mtime = epochSeconds(tl.gather);
  const layout = w.spec.masterLayout;
  const sno = layout === 'single-node';
  const reachable = !s.hooks.mastersUnreachable;
  const kubeconfig = tl.cbStart !== undefined && (tl.requiredPodsReady === undefined || tl.requiredPodsReady > tl.gather) && tl.apiUp !== undefined ? '/etc/kubernetes/bootstrap-secrets/kubeconfig' : '/opt/openshift/auth/kubeconfig';
  const masterIps = w.masters.map((m) => m.ip);

  // The bootstrap host's artifacts.
  const boot = bootstrapTree(s);
  if (!sno) {
    boot.add('gather.log', gatherLog(s, { apiAnswered: s.cluster.apiAtGather, kubeconfig, masterIps, reachable }));
  }
  const outer = new Tree();
  let bootPrefix = '';
  if (sno) {
    // Post-reboot gather on the node itself: the bootstrap phase's bundle one level deeper.
    boot.add('gather.log', gatherLog(s, { apiAnswered: true, kubeconfig: '/opt/openshift/auth/kubeconfig', masterIps: [], reachable: true }));
    outer.graft('log-bundle-bootstrap', boot);
    outer.add('gather.log', gatherLog(s, { apiAnswered: s.cluster.apiAtGather, kubeconfig: '/etc/kubernetes/bootstrap-secrets/kubeconfig', masterIps: [], reachable: true, sno: true }));
    const res = new Map<string, string | Buffer>();
    if (s.cluster.apiAtGather) writeResources(s, res);
    for (const [k, v] of res) outer.add(k, v);
    outer.add('failed-units.txt', failedUnitsText([]));
    outer.dir('unit-status');
    // The post-reboot gather runs the bootstrap steps on the node: empty journals, its own
    // network and containers, nothing to copy from /var/opt/openshift.
    const node = masterTree(s, 0);
    for (const u of bootstrapUnits(s)) outer.add(`bootstrap/journals/${u}.log`, '-- No entries --\n');
    for (const [p, f] of node.files) {
      if (p.startsWith('network/') && !p.endsWith('netstat.txt')) outer.files.set(`bootstrap/${p}`, f);
      if (p.startsWith('containers/')) outer.files.set(`bootstrap/${p}`, f);
    }
    outer.dir('bootstrap/network');
    outer.dir('bootstrap/containers');
    outer.dir('bootstrap/pods');
    outer.dir('rendered-assets');
    outer.graft('control-plane/master', node);
    bootPrefix = 'log-bundle-bootstrap/';
  } else {
    for (const [p, f] of boot.files) outer.files.set(p, f);
    for (const d of boot.dirs) outer.dirs.add(d);
    w.masters.forEach((m, i) => {
      if (!reachable) {
        outer.dir(`control-plane/${m.ip}`);
        return;
      }
      const part = masterTree(s, i);
      if (layout === 'nested-bundle') {
        const inner = `log-bundle-${id}`;
        outer.add(`control-plane/${m.ip}/${inner}.tar.gz`, tarGzProducer(() => part.entries(inner, mtime, CORE)));
      } else if (layout === 'nested-ip') {
        outer.add(`control-plane/${m.ip}.tar.gz`, tarGzProducer(() => part.entries('.', mtime, CORE).map((e) => ({ ...e, path: e.path === './' ? './' : e.path }))));
      } else {
        outer.graft(`control-plane/${m.ip}`, part);
      }
    });
  }

  const combined = !!w.spec.combined;
  const base = combined ? `${root}/${root}` : root;
  const serialBase = `${root}/home/${w.spec.clusterName === 'sno' ? 'kni' : 'ocpadmin'}/${w.spec.clusterName}`;
  const resolve = (ref: Pick<EvidenceRef, 'host' | 'rel'>): string => {
    const h = ref.host;
    if (h === 'root') return `${base}/${ref.rel}`;
    if (h === 'bootstrap') return `${base}/${bootPrefix}${ref.rel}`;
    if ('serial' in h) return `${serialBase}/serial/${h.serial}-serial.log`;
    const m = w.masters[h.master];
    if (sno) return `${base}/control-plane/master/${ref.rel}`;
    if (layout === 'nested-bundle') return `${base}/control-plane/${m.ip}/log-bundle-${id}.tar.gz!/log-bundle-${id}/${ref.rel}`;
    if (layout === 'nested-ip') return `${base}/control-plane/${m.ip}.tar.gz!/${ref.rel}`;
    return `${base}/control-plane/${m.ip}/${ref.rel}`;
  };

  const entries = (): ReturnType<Tree['entries']> => {
    if (!combined) return outer.entries(root, mtime, CORE);
    // The installer's CombineArchives: every inner entry under log-bundle-<ID>/, the serial
    // and Cluster API parts under the directory the installer ran in.
    const inner = outer.entries(root, mtime, CORE).map((e) => ({ ...e, path: `${root}/${e.path}` }));
    const extra = new Tree();
    for (const [name, sl] of s.serial) extra.add(`serial/${name}-serial.log`, sl.log.render(tl.gather));
    for (const [name, content] of capiFiles(s)) extra.add(`clusterapi/${name}`, content);
    const user = { core: [1000, 1000] as [number, number] };
    const extras = extra.entries(serialBase, mtime, user).filter((e) => e.type === 'file').map((e) => ({ ...e, uname: 'ocpadmin', gname: 'ocpadmin' }));
    return [...inner, ...extras].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  };
  return { entries, resolve, archiveName: `${root}.tar.gz` };
}

/** Cluster API manifests and local control-plane logs the installer keeps (4.16+). */
function capiFiles(s: Story): Map<string, string> {
  const { w } = s;
  const out = new Map<string, string>();
  const ns = 'openshift-cluster-api-guests';
  const kind = w.spec.platform === 'aws' ? 'AWSCluster' : 'VSphereCluster';
  out.set(`000_Namespace-${ns}.yaml`, `apiVersion: v1\nkind: Namespace\nmetadata:\n  name: ${ns}\n`);
  out.set(`010_Cluster-${ns}-${w.infraId}.yaml`, `apiVersion: cluster.x-k8s.io/v1beta1\nkind: Cluster\nmetadata:\n  name: ${w.infraId}\n  namespace: ${ns}\nspec:\n  clusterNetwork:\n    apiServerPort: 6443\n  controlPlaneEndpoint:\n    host: ${w.apiName}\n    port: 6443\n  infrastructureRef:\n    apiVersion: infrastructure.cluster.x-k8s.io/v1beta2\n    kind: ${kind}\n    name: ${w.infraId}\n    namespace: ${ns}\nstatus:\n  infrastructureReady: true\n  phase: Provisioned\n`);
  w.masters.forEach((m, i) => {
    out.set(`10_Machine-${ns}-${w.infraId}-master-${i}.yaml`, `apiVersion: cluster.x-k8s.io/v1beta1\nkind: Machine\nmetadata:\n  labels:\n    cluster.x-k8s.io/control-plane: ""\n  name: ${w.infraId}-master-${i}\n  namespace: ${ns}\nspec:\n  clusterName: ${w.infraId}\n  bootstrap:\n    dataSecretName: ${w.infraId}-master\nstatus:\n  addresses:\n  - address: ${m.ip}\n    type: InternalIP\n  bootstrapReady: true\n  infrastructureReady: true\n  phase: Provisioned\n`);
  });
  out.set('kube-apiserver.log', `${klog(s.w.t0 - 15 * 60 * SECOND, 'I', 1, 'secure_serving.go:213', 'Serving securely on 127.0.0.1:37151')}\n`);
  out.set('etcd.log', `{"level":"info","ts":"${new Date(Math.floor((s.w.t0 - 16 * 60 * SECOND) / 1000)).toISOString()}","caller":"embed/serve.go:187","msg":"serving client traffic insecurely; this is strongly discouraged!","traffic":"grpc+http","address":"127.0.0.1:2379"}\n`);
  return out;
}
