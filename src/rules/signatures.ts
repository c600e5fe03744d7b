// What an error says tells the category: a table of the general forms of real error messages,
// most specific first, each with the upstream source that prints it and a real line it matches
// (checked by test/rules/signatures.test.ts). Context decides between categories the same words
// name: an x509 or connection error while pulling an image is the registry's, while fetching
// ignition it is ignition's, elsewhere the network's.
import type { CategoryId } from '../taxonomy.js';
import { matchWindow } from '../text/match-window.js';

export interface Signature {
  id: string;
  category: CategoryId;
  /** The general form of the message. */
  re: RegExp;
  /** Only when the text also says this (the operation the error happened in). */
  when?: RegExp;
  /** Not when the text says this. */
  unless?: RegExp;
  /** Where the message comes from: the upstream source file that prints it. */
  source: string;
  /** A real line it matches, as someone posted or a component printed it. */
  example: string;
  /** The public thread the example was posted in, when it was. */
  exampleFrom?: string;
}

/** The text speaks of pulling an image (podman, CRI-O, kubelet, containers/image). */
const PULLING = /pull|manifest|docker:\/\/|pinging (?:docker|container) registry|\/v2\/|blob|registry|quay\.io|Trying to pull|image source|initializing source|ImagePull|ErrImage/i;
/** The text speaks of fetching a host's ignition from the machine-config server. */
const IGNITION_FETCH = /:22623|config\/(?:master|worker)|ignition/i;
/** The text speaks of etcd's peer port. */
const ETCD_PEER = /:2380\b/;

const GO_X509 = 'https://github.com/golang/go/blob/master/src/crypto/x509/verify.go';
const GO_NET = 'https://github.com/golang/go/blob/master/src/net/net.go';
const CONTAINERS_IMAGE = 'https://github.com/containers/image/blob/main/docker/docker_client.go';
const DISTRIBUTION_ERRORS = 'https://github.com/distribution/distribution/blob/main/registry/api/errcode/register.go';
const HIVE_REGEXES = 'https://github.com/openshift/hive/blob/master/config/configmaps/install-log-regexes-configmap.yaml';

export const SIGNATURES: readonly Signature[] = [
  // --- a name does not resolve (api, api-int, *.apps, a registry, etcd-N, the proxy itself).
  {
    id: 'name-resolution',
    category: 'dns',
    re: /no such host|server misbehaving|Temporary failure in name resolution|Name or service not known|[Cc]ould not resolve (?:host|proxy)|lookup \S+ on \S+: (?:read udp|dial udp|.*i\/o timeout|.*connection refused)|NXDOMAIN|name resolution|failed to resolve|unknown host/,
    source: GO_NET,
    example: 'Still waiting for the Kubernetes API: Get https://api.openshift.hkeas.com:6443/version?timeout=32s: dial tcp: lookup api.openshift.hkeas.com on 172.31.0.2:53: server misbehaving',
  },
  // --- proxy: the proxy answers for the registry, the API or the cloud.
  {
    id: 'proxy-connect',
    category: 'proxy',
    re: /proxyconnect tcp|Proxy Authentication Required|\b407\b(?:[^\n4]|4(?!07))*proxy|proxy error|error connecting to proxy|via a proxy|Tunnel or SSL Forbidden/i,
    source: 'https://github.com/golang/go/blob/master/src/net/http/transport.go',
    example: 'Error: initializing source docker://quay.io/openshift-release-dev/ocp-release@sha256:29c6: pinging container registry quay.io: Get "https://quay.io/v2/": proxyconnect tcp: dial tcp 192.168.1.10:3128: connect: connection refused',
  },
  // --- time: a certificate not yet valid means a clock behind; expired means an old certificate.
  {
    id: 'x509-not-yet-valid',
    category: 'clock-skew',
    re: /current time \S+ is before \S+|certificate is not yet valid|x509: certificate has expired or is not yet valid: current time [^ ]+ is before/i,
    source: GO_X509,
    example: 'x509: certificate has expired or is not yet valid: current time 2020-08-06T19:59:23Z is before 2020-08-07T01:38:33Z',
  },
  {
    id: 'clock-difference',
    category: 'clock-skew',
    re: /clock difference|clock[- ]drift|clock skew|time (?:is )?out of sync|no selectable sources|Can't synchronise|NTP (?:server|sync)/i,
    source: 'https://github.com/etcd-io/etcd/blob/main/server/etcdserver/api/rafthttp/probing_status.go',
    example: '{"level":"warn","ts":"2021-03-19T04:34:39.390Z","caller":"rafthttp/probing_status.go:82","msg":"prober found high clock drift","round-tripper-name":"ROUND_TRIPPER_SNAPSHOT","remote-peer-id":"a4a7a8d92a1f8c87","clock-drift":"1.390856086s","rtt":"2.6ms"}',
  },
  {
    id: 'x509-expired',
    category: 'certificate-expired',
    re: /x509: certificate has expired|certificate has expired or is not yet valid|current time \S+ is after \S+|certificate expired|expired certificate/i,
    source: GO_X509,
    example: 'x509: certificate has expired or is not yet valid: current time 2021-05-10T11:16:04Z is after 2021-05-08T09:44:50Z',
  },
  // --- the registry refuses the pull secret.
  {
    id: 'registry-unauthorized',
    category: 'registry-auth',
    re: /unauthorized: (?:authentication required|access to the requested resource is not authorized|incorrect username or password)|denied: requested access to the resource is denied|authentication required|invalid username\/password|no basic auth credentials|unable to retrieve auth token|illegal base64 data at input byte|error parsing .*auth|pull access denied|\b401 Unauthorized\b|requested access to the resource is denied|Unauthorized.*(?:registry|pull)|(?:pull|registry|manifest).*\bunauthorized\b/i,
    source: DISTRIBUTION_ERRORS,
    example: 'Error: initializing source docker://quay.io/openshift-release-dev/ocp-release@sha256:a386: reading manifest sha256:a386 in quay.io/openshift-release-dev/ocp-release: unauthorized: authentication required',
  },
  // --- the registry lacks the image.
  {
    id: 'manifest-unknown',
    category: 'image-missing',
    re: /manifest unknown|manifest (?:for )?\S+ not found|reading manifest \S+ in \S+: (?:not found|name unknown)|name unknown|no image found in manifest list|repository \S+ not found|image not known|unable to find image|no such image|not found: manifest unknown/i,
    source: DISTRIBUTION_ERRORS,
    example: 'error: unable to read image quay.io/openshift-release-dev/ocp-release@sha256:5a65: manifest unknown: manifest unknown',
  },
  // --- a certificate is not trusted: the registry's, the machine-config server's, the API's.
  {
    id: 'x509-untrusted-registry',
    category: 'registry-tls',
    re: /x509: certificate signed by unknown authority|certificate is not trusted|tls: failed to verify certificate|x509: certificate is valid for|doesn't contain any IP SANs|certificate relies on legacy Common Name field/i,
    when: PULLING,
    source: GO_X509,
    example: 'Error: error pulling image "quay.io/openshift-release-dev/ocp-release@sha256:3ab3": unable to pull quay.io/openshift-release-dev/ocp-release@sha256:3ab3: unable to pull image: Error initializing source docker://registry.example.com:5000/ocp4/openshift4@sha256:3ab3: pinging docker registry returned: Get https://registry.example.com:5000/v2/: x509: certificate signed by unknown authority',
  },
  {
    id: 'x509-untrusted-ignition',
    category: 'ignition',
    re: /x509: certificate signed by unknown authority|certificate is not trusted|tls: failed to verify certificate/i,
    when: IGNITION_FETCH,
    source: 'https://github.com/coreos/ignition/blob/main/internal/resource/http.go',
    example: 'ignition[803]: GET error: Get "https://api-int.ocp4.example.com:22623/config/master": x509: certificate signed by unknown authority',
  },
  {
    // The API's certificate not trusted by the installer's kubeconfig: assets from another run
    // (a reused install directory) or a load balancer in front of another cluster.
    id: 'x509-untrusted-api',
    category: 'install-config',
    re: /x509: certificate signed by unknown authority|certificate is not trusted|tls: failed to verify certificate|x509: certificate is valid for/i,
    when: /:6443\b|Kubernetes API|kube-apiserver-lb-signer|api-int\.|\bapi\./,
    source: GO_X509,
    example: 'DEBUG Still waiting for the Kubernetes API: Get https://api.okd.test1.com:6443/version?timeout=32s: x509: certificate signed by unknown authority (possibly because of "crypto/rsa: verification error" while trying to verify candidate authority certificate "kube-apiserver-lb-signer")',
    exampleFrom: 'https://github.com/openshift/installer/issues/5146',
  },
  // --- disk, memory, CPU too small or full.
  {
    id: 'no-space',
    category: 'resource-exhaustion',
    re: /no space left on device|disk quota exceeded|mvcc: database space exceeded|DiskPressure|disk pressure|ephemeral-storage/i,
    source: 'https://github.com/golang/go/blob/master/src/syscall/zerrors_linux_amd64.go',
    example: 'Error: writing blob: adding layer with blob "sha256:0c6a": processing tar file(write /usr/lib64/libLLVM-12.so: no space left on device): exit status 1',
  },
  {
    id: 'out-of-memory',
    category: 'resource-exhaustion',
    re: /out of memory|OOMKilled|oom[-_ ]kill|Killed process \d+|cannot allocate memory|MemoryPressure|memory pressure|Insufficient (?:cpu|memory)|exceeded .*memory limit|evicted/i,
    source: 'https://github.com/torvalds/linux/blob/master/mm/oom_kill.c',
    example: 'kernel: Out of memory: Killed process 2345 (kube-apiserver) total-vm:4556788kB, anon-rss:2989112kB, file-rss:0kB, shmem-rss:0kB, UID:0 pgtables:6344kB oom_score_adj:-999',
  },
  // --- etcd: peers unreachable is the network's; the rest is etcd's health.
  {
    id: 'etcd-peer-unreachable',
    category: 'network-connectivity',
    re: /i\/o timeout|connection refused|no route to host|network is unreachable|connection reset/i,
    when: ETCD_PEER,
    source: 'https://github.com/etcd-io/etcd/blob/main/server/etcdserver/api/rafthttp/peer_status.go',
    example: '{"level":"warn","ts":"2023-01-10T03:09:43.846Z","caller":"rafthttp/probing_status.go:68","msg":"prober detected unhealthy status","round-tripper-name":"ROUND_TRIPPER_RAFT_MESSAGE","remote-peer-id":"84df05261edb239e","rtt":"16.62287ms","error":"dial tcp 192.168.2.11:2380: i/o timeout"}',
  },
  {
    id: 'etcd-unhealthy',
    category: 'etcd-health',
    re: /etcdserver: (?:request timed out|leader changed|no leader|too many requests|unhealthy cluster|request cluster ID mismatch)|etcd cluster is unavailable|slow fdatasync|apply request took too long|took too long \(|waiting for ReadIndex response took too long|leader is overloaded|failed to send out heartbeat|lost leader|has already been bootstrapped|etcdctl failed|unhealthy cluster|failed to publish local member|is unhealthy: failed to commit proposal|etcd-health|etcd member .* (?:unhealthy|not healthy)|EtcdMembersDegraded|EtcdMembers(?:Available|Progressing)?.*unhealthy/i,
    source: 'https://github.com/etcd-io/etcd/blob/main/server/etcdserver/errors/errors.go',
    example: '{"level":"warn","ts":"2022-09-26T14:17:30.123Z","caller":"wal/wal.go:805","msg":"slow fdatasync","took":"1.328126314s","expected-duration":"1s"}',
  },
  // --- a rendered machine config does not match the disk.
  {
    id: 'machine-config-drift',
    category: 'machine-config',
    re: /unexpected on-disk state|content mismatch for file|expected target osImageURL|machineconfig\.machineconfiguration\.openshift\.io "[^"]+" not found|rendered-(?:master|worker)-\w+ (?:not found|does not exist)|Marking Degraded due to|failed to apply machine ?config/i,
    source: 'https://github.com/openshift/machine-config-operator/blob/master/pkg/daemon/daemon.go',
    example: 'Marking Degraded due to: unexpected on-disk state validating against rendered-master-46b9c3c5a3a4d5b8a5f64f6c4c0e4c8e: content mismatch for file "/etc/kubernetes/kubelet.conf"',
  },
  // --- the pod network: CNI config missing, OVN/SDN not starting, MTU.
  {
    id: 'network-plugin',
    category: 'network-plugin',
    re: /NetworkPluginNotReady|network is not ready|cni config uninitialized|no CNI configuration file|failed to find plugin|CNI network \S+ not found|plugin type="(?:multus|ovn-k8s-cni-overlay|openshift-sdn)"|ovnkube|ovn-controller|ovs-vsctl|openvswitch|br-ex|configure-ovs|too small for specified overlay MTU|MTU (?:[^\nM]|M(?!TU ))*(?:too (?:small|large)|mismatch)|openshift-sdn|sdn-controller|geneve|NetworkUnavailable/i,
    source: 'https://github.com/kubernetes/kubernetes/blob/master/pkg/kubelet/kubelet_network.go',
    example: 'E1122 10:31:15.221190    2519 kubelet.go:2855] "Container runtime network not ready" networkReady="NetworkReady=false reason:NetworkPluginNotReady message:Network plugin returns error: No CNI configuration file in /etc/kubernetes/cni/net.d/. Has your network provider started?"',
  },
  // Pods that cannot reach the API's service IP (the first address of OpenShift's default service
  // network 172.30.0.0/16): the pod network does not carry service traffic.
  {
    id: 'service-network-unreachable',
    category: 'network-plugin',
    re: /dial tcp 172\.30\.0\.1:443: (?:i\/o timeout|connect: (?:connection refused|no route to host))/,
    source: 'https://github.com/openshift/installer/blob/master/pkg/types/defaults/installconfig.go',
    example: 'unable to load configmap based request-header-client-ca-file: Get "https://172.30.0.1:443/api/v1/namespaces/kube-system/configmaps/extension-apiserver-authentication": dial tcp 172.30.0.1:443: i/o timeout',
  },
  // --- a host cannot fetch or apply its ignition.
  {
    id: 'ignition',
    category: 'ignition',
    re: /Ignition failed|ignition\[\d+\]: .*(?:error|failed)|failed to fetch config|config is not valid|failed to parse (?:ignition )?config|error at line \d+ col|GET error: .*22623|GET result: (?:Internal Server Error|Not Found)|emergency shell.*ignition|refusing to serve/i,
    // A refused or timed-out fetch is the network's: the next entries name it.
    unless: /connection refused|i\/o timeout|no route to host|network is unreachable|connection reset|unsupported config version|invalid config version|Unused key/,
    source: 'https://github.com/coreos/ignition/blob/main/internal/resource/url.go',
    example: '[ 3788.086838] ignition[754]: GET error: Get "https://api-int.ocp4.nested.lab:22623/config/master": EOF',
    exampleFrom: 'https://github.com/redhat-cop/ocp4-helpernode/issues/255',
  },
  // --- node certificate requests not approved.
  {
    id: 'csr-not-approved',
    category: 'csr-pending',
    re: /certificate signing request .* (?:not approved|pending)|csr-\w+ .*Pending|Failed while requesting a signed certificate|no serving certificate available|certificate_manager\.go.*(?:failed|error)|waiting for (?:the )?CSR|kubelet-serving.*pending/i,
    // A request that never reached the API is the network's (the next entries name it).
    unless: /connection refused|i\/o timeout|no route to host|network is unreachable|no such host|EOF\b/,
    source: 'https://github.com/kubernetes/kubernetes/blob/master/staging/src/k8s.io/client-go/util/certificate/certificate_manager.go',
    example: 'E0918 07:55:53.384620    1689 certificate_manager.go:385] Failed while requesting a signed certificate from the master: cannot create certificate signing request: Unauthorized',
  },
  // --- the platform refuses: quotas, limits, credentials, capacity.
  {
    id: 'cloud-quota',
    category: 'cloud-provider',
    re: /LimitExceeded|Quota '[A-Z_]+' exceeded|QuotaExceeded|quota exceeded|InsufficientInstanceCapacity|is not available in \S+ because the required number of resources|TooManyLoadBalancers|RequestLimitExceeded|Throttling: Rate exceeded/,
    source: HIVE_REGEXES,
    example: 'Error: Error creating EIP: AddressLimitExceeded: The maximum number of addresses has been reached.',
  },
  {
    id: 'cloud-credentials',
    category: 'cloud-provider',
    re: /UnauthorizedOperation|AccessDenied|InvalidClientTokenId|AuthorizationFailed|AuthFailure|NoCredentialProviders|not authorized to perform|googleapi: Error 40[13]|SubscriptionNotFound|does not have authorization to perform|credentials insufficient|failed to get credentials|could not (?:get|find) credentials|(?:getting|get) credentials secret|failed to create scope for machine|InvalidParameterValue|InvalidAMIID|ServerFaultCode|failed to find (?:default )?(?:datastore|resource pool|folder|network)|(?:resource pool|datastore|folder) .*(?:not found|resolves to multiple)|Error waiting for instance .* to become ready|failed to create machine|error launching instance|InsufficientFreeAddressesInSubnet/i,
    source: HIVE_REGEXES,
    example: 'UnauthorizedOperation: You are not authorized to perform this operation. Encoded authorization failure message: 4GIOHlTkS',
  },
  // --- CRI-O, kubelet or podman cannot run containers.
  {
    id: 'container-runtime',
    category: 'container-runtime',
    re: /Failed to create pod sandbox|failed to create shim|OCI runtime (?:create )?failed|runc(?: create)? failed|container runtime is down|PLEG is not healthy|crio\.sock|connect to the (?:container runtime|Docker daemon)|error creating container storage|the container name "[^"]+" is already in use|name "[^"]+" is in use|validating runtime config|unknown runtime|cgroup|Device or resource busy|conmon|failed to mount overlay|storage driver|crio\.service: (?:Main process exited|Failed)|Error: (?:creating|mounting) container|\/etc\/crio\/|crio\.conf/i,
    source: 'https://github.com/cri-o/cri-o/blob/main/server/sandbox_run_linux.go',
    example: 'level=fatal msg="validating runtime config: runtime validation: \\"runc\\" not found in $PATH: exec: \\"runc\\": executable file not found in $PATH"',
  },
  // --- the install configuration (or the installer and release) do not fit together.
  {
    id: 'version-or-config-mismatch',
    category: 'install-config',
    re: /unknown flag: --|flag provided but not defined|unknown shorthand flag|[Uu]nknown name requested|unknown field "|failed to load asset "Install Config"|failed to (?:fetch|generate) (?:asset|Master Machines|Cluster)|Invalid value: |is not a valid (?:IP|CIDR|value)|overlaps with|overlapping|unsupported (?:value|version|platform)|Invalid refspec|unrecognized command|required value|does not match (?:the )?(?:release|installer|version)|version skew|install-config|need at least \d+ [\w-]+, got \d+|open \/assets\/\S+: no such file or directory|unsupported config version|invalid config version|Unused key \S+/,
    source: 'https://github.com/spf13/pflag/blob/master/flag.go',
    example: 'Error: unknown flag: --infra-config-file',
  },
  // --- a host, port or load balancer cannot be reached.
  {
    id: 'registry-unreachable',
    category: 'registry-unreachable',
    re: /i\/o timeout|connection refused|no route to host|network is unreachable|connection reset by peer|TLS handshake timeout|Client\.Timeout exceeded|connection timed out|dial tcp|unexpected EOF|502 Bad Gateway|503 Service Unavailable/i,
    when: PULLING,
    source: CONTAINERS_IMAGE,
    example: 'Error: initializing source docker://quay.io/openshift-release-dev/ocp-release@sha256:1234: pinging container registry quay.io: Get "https://quay.io/v2/": dial tcp 3.218.72.188:443: i/o timeout',
  },
  {
    id: 'network-unreachable',
    category: 'network-connectivity',
    re: /i\/o timeout|connection refused|no route to host|network is unreachable|connection reset by peer|TLS handshake timeout|Client\.Timeout exceeded|[Cc]onnection timed out|dial tcp|503 Service Unavailable|context deadline exceeded \(Client\.Timeout/,
    source: GO_NET,
    example: 'Still waiting for the Kubernetes API: Get "https://api.ocp4.example.com:6443/version?timeout=32s": dial tcp 192.168.1.5:6443: connect: no route to host',
  },
  // --- a cluster operator is Degraded or not Available, the cause not named.
  {
    id: 'operator-degraded',
    category: 'operator-degraded',
    re: /Cluster operator \S+ (?:Degraded is True|Available is False)|[Cc]luster operator \S+ is (?:degraded|not available|still updating)|Some cluster operators are (?:still updating|not available)|ClusterOperatorDegraded|ClusterOperatorNotAvailable/,
    source: 'https://github.com/openshift/installer/blob/master/cmd/openshift-install/create.go',
    example: 'failed to initialize the cluster: Cluster operator authentication is degraded',
  },
];

/**
 * Every signature's form in one regex per set of flags: a text none of them matches has no
 * signature (`when` and `unless` only narrow), and one pass of a combined regex costs a fraction
 * of a pass per signature. Most lines an error classifier is shown match none. A form whose
 * groups are named or referred back to (numbered anew, or clashing, in a combined regex), or
 * whose flags keep state, is tested alone.
 */
const ALONE = /\\[1-9]|\\k<|\(\?<(?![=!])/;
const combinable = (s: Signature): boolean => !ALONE.test(s.re.source) && !/[gy]/.test(s.re.flags);

/** The regexes one of which matches wherever one of `signatures`' forms does. */
export function formTests(signatures: readonly Signature[]): RegExp[] {
  const together = signatures.filter(combinable);
  return [
    ...[...new Set(together.map((s) => s.re.flags))].map(
      (flags) => new RegExp(together.filter((s) => s.re.flags === flags).map((s) => `(?:${s.re.source})`).join('|'), flags),
    ),
    ...signatures.filter((s) => !combinable(s)).map((s) => s.re),
  ];
}

const FORM_TESTS = formTests(SIGNATURES);

/** The signature a text matches first, if any. */
export function matchSignature(whole: string): Signature | undefined {
  // Bounded work per text: the regexes see its first MATCH_WINDOW characters.
  const text = matchWindow(whole);
  if (!FORM_TESTS.some((re) => re.test(text))) return undefined;
  for (const s of SIGNATURES) {
    if (!s.re.test(text)) continue;
    if (s.when && !s.when.test(text)) continue;
    if (s.unless && s.unless.test(text)) continue;
    return s;
  }
  return undefined;
}

/** The category an error text points to, or `unknown`. */
export function classifyError(text: string): CategoryId {
  return matchSignature(text)?.category ?? 'unknown';
}
