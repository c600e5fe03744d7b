// What `crictl logs` returns for the containers the story runs: etcd's JSON startup and
// membership, machine-config-server's ignition requests, kube-apiserver, CVO and operator
// klog chatter. Failures add their own lines to these logs.
import { PlainLog } from './host-logs.js';
import { etcdJson, klog } from './log-formats.js';
import { etcdNoise, klogNoise } from './noise.js';
import type { PodSpec } from './pods.js';
import type { Story } from './story.js';
import { MINUTE, SECOND, type Micros } from './time.js';

const APISERVER_NOISE = [
  ['trace.go:236', 'Trace[{n}{hex}]: "List" accept:application/json, */*,audit-id:{hex}-{hex},client:127.0.0.1,protocol:HTTP/2.0,resource:configmaps,scope:namespace,url:/api/v1/namespaces/openshift-config-managed/configmaps,user-agent:cluster-version-operator/v1.0.0,verb:LIST (total time: 5{n}ms):', 'I'],
  ['controller.go:624', 'quota admission added evaluator for: {hex}s.config.openshift.io', 'I'],
  ['httplog.go:131', '"HTTP" verb="GET" URI="/readyz" latency="1.{n}ms" userAgent="Go-http-client/1.1" audit-ID="" srcIP="[::1]:{n}" resp=200', 'I'],
  ['handler_proxy.go:93', 'no RequestInfo found in the context', 'E'],
  ['cacher.go:1162', 'cacher (*unstructured.Unstructured): 1 objects queued in incoming channel.', 'W'],
  ['controller.go:116', 'loading OpenAPI spec for "v1.oauth.openshift.io" failed with: failed to retrieve openAPI spec, http error: ResponseCode: 503, Body: service unavailable', 'E'],
  ['aggregator.go:166', 'failed to download v1.route.openshift.io: failed to retrieve openAPI spec, http error: ResponseCode: 503, Body: service unavailable', 'W'],
  ['patch_genericapiserver.go:208', 'Loopback request to "system:serviceaccount:openshift-machine-config-operator:machine-config-controller" (user agent "machine-config-controller/v0.0.0") before server is ready. This client probably does not watch /readyz and might get inconsistent answers.', 'W'],
] as const;

const CVO_NOISE = [
  ['sync_worker.go:{n}', 'Running sync for customresourcedefinition "{hex}s.config.openshift.io" ({n} of 8{n})', 'I'],
  ['sync_worker.go:1012', 'Done syncing for namespace "openshift-{hex}" ({n} of 8{n})', 'I'],
  ['task_graph.go:474', 'Running {n} on worker 1', 'I'],
  ['cvo.go:679', 'Finished syncing cluster version "openshift-cluster-version/version" (1{n}.{n}µs)', 'I'],
  ['availableupdates.go:55', 'Retrieving available updates again, because more than 3m{n}s has elapsed since 2024-01-01T00:00:00Z', 'I'],
  ['sync_worker.go:1154', 'Update error 2{n} of 8{n}: UpdatePayloadFailed Could not update deployment "openshift-{hex}-operator/{hex}-operator" (2{n} of 8{n}) (*errors.errorString: deployment openshift-{hex}-operator/{hex}-operator has not yet successfully rolled out)', 'E'],
] as const;

const OPERATOR_NOISE = [
  ['leaderelection.go:250', 'attempting to acquire leader lease kube-system/{hex}...', 'I'],
  ['reflector.go:289', 'Starting reflector *v1.ConfigMap (10m0s) from k8s.io/client-go/informers/factory.go:159', 'I'],
  ['event.go:298', 'Event(v1.ObjectReference{Kind:"Namespace", Namespace:"openshift-{hex}", Name:"openshift-{hex}"}): type: \'Normal\' reason: \'CreatedSCCRanges\' created SCC ranges', 'I'],
  ['controller.go:{n}', 'Waiting for caches to sync for {hex}', 'I'],
  ['shared_informer.go:318', 'Caches are synced for {hex}', 'I'],
] as const;

/** Startup lines and chatter of one container of a pod. */
export function containerLog(s: Story, pod: PodSpec, container: string, host: 'bootstrap' | number, from: Micros, to: Micros): PlainLog {
  const log = new PlainLog();
  const { w } = s;
  const seed = `${w.spec.seed}/clog/${host}/${pod.name}/${container}`;
  const d = s.density;
  const t0 = from + 200_000;
  const K = (t: Micros, sev: 'I' | 'W' | 'E', caller: string, msg: string): void => {
    log.add(t, klog(t, sev, 1, caller, msg));
  };
  switch (`${pod.kind}/${container}`) {
    case 'etcd/etcd':
    case 'etcd/etcd-member': {
      const ip = host === 'bootstrap' ? w.bootstrap.ip : w.masters[host].ip;
      const name = host === 'bootstrap' ? 'etcd-bootstrap' : w.masters[host].nodeName;
      const E = (t: Micros, msg: string, f: Record<string, unknown> = {}, level: 'info' | 'warn' = 'info', caller = 'embed/etcd.go:308'): void => {
        log.add(t, etcdJson(t, level, caller, msg, f));
      };
      E(t0, 'Running: ', { args: ['etcd', `--initial-advertise-peer-urls=https://${ip}:2380`, '--cert-file=/etc/ssl/etcd/system:etcd-server:' + ip + '.crt', '--key-file=/etc/ssl/etcd/system:etcd-server:' + ip + '.key', '--trusted-ca-file=/etc/ssl/etcd/ca.crt', '--client-cert-auth=true', '--peer-cert-file=/etc/ssl/etcd/system:etcd-peer:' + ip + '.crt', '--peer-key-file=/etc/ssl/etcd/system:etcd-peer:' + ip + '.key', '--peer-trusted-ca-file=/etc/ssl/etcd/ca.crt', '--peer-client-cert-auth=true', `--advertise-client-urls=https://${ip}:2379`, '--listen-client-urls=https://0.0.0.0:2379', '--listen-peer-urls=https://0.0.0.0:2380', '--metrics=extensive', '--listen-metrics-urls=https://0.0.0.0:9978'] }, 'info', 'etcdmain/etcd.go:73');
      E(t0 + 2000, 'configuring peer listeners', { 'listen-peer-urls': ['https://0.0.0.0:2380'] }, 'info', 'embed/etcd.go:127');
      E(t0 + 3000, 'configuring client listeners', { 'listen-client-urls': ['https://0.0.0.0:2379'] }, 'info', 'embed/etcd.go:135');
      E(t0 + 5000, 'starting an etcd server', { 'etcd-version': w.release.etcdVersion, 'go-version': `go1.${w.release.minor >= 16 ? 21 : 20}.${w.release.minor % 10}`, 'go-os': 'linux', 'go-arch': 'amd64', name, 'data-dir': '/var/lib/etcd', 'initial-cluster': `${name}=https://${ip}:2380`, 'initial-cluster-state': host === 'bootstrap' ? 'new' : 'existing', 'quota-backend-bytes': 8589934592 });
      const mid = s.w.prng.fork(`etcd-member/${host}`).hex(16);
      E(t0 + 90_000, 'starting local member', { 'local-member-id': mid, 'cluster-id': s.w.prng.fork('etcd-cluster').hex(16) }, 'info', 'etcdserver/raft.go:495');
      if (host === 'bootstrap') {
        E(t0 + 1_100_000, `${mid} became leader at term 2`, {}, 'info', 'raft/raft.go:771');
      }
      E(t0 + 1_200_000, 'published local member to cluster through raft', { 'local-member-id': mid, 'local-member-attributes': `{Name:${name} ClientURLs:[https://${ip}:2379]}`, 'request-path': `/0/members/${mid}/attributes`, 'publish-timeout': '7s' }, 'info', 'etcdserver/server.go:2062');
      E(t0 + 1_250_000, 'serving client traffic securely', { address: '[::]:2379' }, 'info', 'embed/serve.go:198');
      if (host === 'bootstrap') {
        s.tl.masterReady.forEach((r, i) => {
          if (r === undefined || r + 3 * MINUTE > to) return;
          const m = w.masters[i];
          const added = r + 2 * MINUTE + i * 37 * SECOND;
          E(added, 'added member', { 'cluster-id': s.w.prng.fork('etcd-cluster').hex(16), 'local-member-id': mid, 'added-peer-id': s.w.prng.fork(`etcd-member/${i}`).hex(16), 'added-peer-peer-urls': [`https://${m.ip}:2380`], 'added-peer-is-learner': true }, 'info', 'membership/cluster.go:421');
          E(added + 40 * SECOND, 'promoted member', { 'cluster-id': s.w.prng.fork('etcd-cluster').hex(16), 'local-member-id': mid, 'promoted-member-id': s.w.prng.fork(`etcd-member/${i}`).hex(16) }, 'info', 'membership/cluster.go:484');
        });
        if (s.tl.bootkubeComplete !== undefined && s.tl.bootkubeComplete < to) {
          E(s.tl.bootkubeComplete + 40 * SECOND, 'the member has been permanently removed from the cluster', { 'local-member-id': mid }, 'warn', 'etcdserver/server.go:1129');
        }
      }
      log.addNoise(etcdNoise({ seed, from: t0 + 2 * MINUTE, to, density: d, memberId: mid }));
      break;
    }
    case 'mcs/machine-config-server': {
      K(t0, 'I', 'start.go:38', `Version: ${w.release.okd ? 'machine-config-daemon-' : ''}v${w.release.version.split('-')[0]}-${2023 + (w.release.minor % 3)}${String((w.release.minor % 12) + 1).padStart(2, '0')}0716${String(w.release.minor).padStart(2, '0')}.p0.g${s.w.prng.fork('mcs').hex(7)}.assembly.stream-dirty (${s.w.prng.fork('mcs').hex(40)})`);
      K(t0 + 3000, 'I', 'api.go:68', 'Launching server on :22624');
      K(t0 + 3500, 'I', 'api.go:68', 'Launching server on :22623');
      // Each master asks for its config once Ignition reaches the server.
      const pm = s.w.prng.fork('mcs-requests');
      s.tl.masterIgnition.forEach((t, i) => {
        if (t === undefined || t > to) return;
        const from = s.w.spec.platform === 'aws' ? `${s.w.bootstrap.ip.split('.').slice(0, 3).join('.')}.${pm.int(2, 250)}` : s.w.masters[i].ip;
        const ign = s.w.release.minor >= 16 ? '2.18.0' : s.w.release.minor >= 14 ? '2.16.2' : s.w.release.minor >= 12 ? '2.14.0' : '2.9.0';
        K(t - 200_000, 'I', 'api.go:117', `Pool master requested by address:"${from}:${pm.int(32768, 60999)}" User-Agent:"Ignition/${ign}" Accept-Header: "application/vnd.coreos.ignition+json;version=3.4.0, */*;q=0.1"`);
      });
      break;
    }
    case 'mcs/machine-config-controller': {
      K(t0, 'I', 'bootstrap.go:47', `Version: v${w.release.version.split('-')[0]} (Raw: v${w.release.version}, Hash: ${s.w.prng.fork('mcc').hex(40)})`);
      K(t0 + 900_000, 'I', 'bootstrap.go:89', 'Successfully generated MachineConfig rendered-master-' + s.w.prng.fork('rendered').hex(32) + ' from pool master');
      K(t0 + 1_000_000, 'I', 'bootstrap.go:89', 'Successfully generated MachineConfig rendered-worker-' + s.w.prng.fork('rendered-w').hex(32) + ' from pool worker');
      break;
    }
    case 'kube-apiserver/kube-apiserver': {
      K(t0, 'I', 'flags.go:64', 'FLAG: --advertise-address="' + (host === 'bootstrap' ? w.bootstrap.ip : w.masters[host].ip) + '"');
      K(t0 + 1000, 'I', 'flags.go:64', 'FLAG: --etcd-servers="[https://localhost:2379]"');
      K(t0 + 40_000, 'I', 'server.go:563', `"Golang settings" GOGC="100" GOMAXPROCS="" GOTRACEBACK=""`);
      K(t0 + 4 * SECOND, 'I', 'secure_serving.go:213', 'Serving securely on [::]:6443');
      K(t0 + 4 * SECOND + 1000, 'I', 'tlsconfig.go:240', '"Starting DynamicServingCertificateController"');
      log.addNoise(klogNoise(seed, t0 + 10 * SECOND, to, d, 70, APISERVER_NOISE));
      break;
    }
    case 'cvo/cluster-version-operator': {
      K(t0, 'I', 'start.go:23', `ClusterVersionOperator ${w.release.okd ? '' : 'v'}${w.release.version}`);
      K(t0 + 300_000, 'I', 'leaderelection.go:250', 'attempting to acquire leader lease openshift-cluster-version/version...');
      K(t0 + 9 * SECOND, 'I', 'leaderelection.go:260', 'successfully acquired lease openshift-cluster-version/version');
      log.addNoise(klogNoise(seed, t0 + 20 * SECOND, to, d, 60, CVO_NOISE));
      break;
    }
    case 'kcm/kube-controller-manager':
    case 'kcm/cluster-policy-controller':
    case 'scheduler/kube-scheduler':
    case 'cco/cloud-credential-operator':
    case 'mcd/machine-config-daemon':
    case 'ovnkube-node/ovnkube-controller':
    case 'multus/kube-multus': {
      K(t0, 'I', 'flags.go:64', `FLAG: --v="2"`);
      log.addNoise(klogNoise(seed, t0 + 5 * SECOND, to, d, 150, OPERATOR_NOISE));
      break;
    }
    default:
      break;
  }
  return log;
}
