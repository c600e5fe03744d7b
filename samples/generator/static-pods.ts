// Static pod manifests bootkube renders (etcd member, bootstrap kube-apiserver, controller
// manager, scheduler, machine-config-operator bootstrap pod, CVO bootstrap pod) as YAML.
import type { World } from './model.js';

export function etcdMemberPod(w: World): string {
  const ip = w.bootstrap.ip;
  const img = w.release.images.etcd;
  return `apiVersion: v1
kind: Pod
metadata:
  name: etcd-bootstrap-member
  namespace: openshift-etcd
  labels:
    k8s-app: etcd
spec:
  initContainers:
  - name: setup
    image: ${img}
    imagePullPolicy: IfNotPresent
    command:
    - /bin/sh
    - -c
    - |
      #!/bin/sh
      echo -n "Fixing etcd log permissions."
      chmod 0700 /var/log/etcd && touch /var/log/etcd/etcd-health-probe.log && chmod 0600 /var/log/etcd/*
    securityContext:
      privileged: true
    volumeMounts:
    - name: log-dir
      mountPath: /var/log/etcd
  containers:
  - name: etcdctl
    image: ${img}
    command:
    - "/bin/bash"
    - "-c"
    - "trap TERM INT; sleep infinity & wait"
    resources:
      requests:
        memory: 60Mi
        cpu: 10m
    volumeMounts:
    - name: certs
      mountPath: /etc/ssl/etcd/
    env:
    - name: ETCDCTL_API
      value: "3"
    - name: ETCDCTL_CACERT
      value: /etc/ssl/etcd/ca.crt
    - name: ETCDCTL_CERT
      value: /etc/ssl/etcd/etcd-all-certs/etcd-peer-${w.bootstrap.hostname}.crt
    - name: ETCDCTL_KEY
      value: /etc/ssl/etcd/etcd-all-certs/etcd-peer-${w.bootstrap.hostname}.key
  - name: etcd
    image: ${img}
    imagePullPolicy: IfNotPresent
    command:
    - /bin/sh
    - -c
    - |
      #!/bin/sh
      set -euo pipefail

      exec etcd \\
        --logger=zap \\
        --log-level=info \\
        --experimental-initial-corrupt-check=true \\
        --snapshot-count=10000 \\
        --initial-advertise-peer-urls=https://${ip}:2380 \\
        --cert-file=/etc/ssl/etcd/etcd-all-certs/etcd-serving-${w.bootstrap.hostname}.crt \\
        --key-file=/etc/ssl/etcd/etcd-all-certs/etcd-serving-${w.bootstrap.hostname}.key \\
        --trusted-ca-file=/etc/ssl/etcd/ca.crt \\
        --client-cert-auth=true \\
        --peer-cert-file=/etc/ssl/etcd/etcd-all-certs/etcd-peer-${w.bootstrap.hostname}.crt \\
        --peer-key-file=/etc/ssl/etcd/etcd-all-certs/etcd-peer-${w.bootstrap.hostname}.key \\
        --peer-trusted-ca-file=/etc/ssl/etcd/ca.crt \\
        --peer-client-cert-auth=true \\
        --advertise-client-urls=https://${ip}:2379 \\
        --listen-client-urls=https://0.0.0.0:2379 \\
        --listen-peer-urls=https://0.0.0.0:2380 \\
        --metrics=extensive \\
        --listen-metrics-urls=https://0.0.0.0:9978
    resources:
      requests:
        memory: 600Mi
        cpu: 300m
    terminationMessagePolicy: FallbackToLogsOnError
    securityContext:
      privileged: true
    ports:
    - name: peer
      containerPort: 2380
      protocol: TCP
    - name: server
      containerPort: 2379
      protocol: TCP
    volumeMounts:
    - name: certs
      mountPath: /etc/ssl/etcd/
    - name: data-dir
      mountPath: /var/lib/etcd/
    - name: log-dir
      mountPath: /var/log/etcd
    env:
    - name: ETCD_DATA_DIR
      value: "/var/lib/etcd"
    - name: ETCD_NAME
      value: "etcd-bootstrap"
    - name: ETCD_INITIAL_CLUSTER
      value: "etcd-bootstrap=https://${ip}:2380"
    - name: ETCD_INITIAL_CLUSTER_STATE
      value: "new"
    - name: ETCD_ENABLE_PPROF
      value: "true"
  hostNetwork: true
  priorityClassName: system-node-critical
  tolerations:
  - operator: "Exists"
  volumes:
  - name: certs
    hostPath:
      path: /etc/kubernetes/static-pod-resources/etcd-member
  - name: data-dir
    hostPath:
      path: /var/lib/etcd
  - name: log-dir
    hostPath:
      path: /var/log/etcd
`;
}

function controlPlanePod(w: World, name: string, namespace: string, container: string, command: string, port: number, volumes: [string, string][]): string {
  const img = w.release.images.hyperkube;
  return `kind: Pod
apiVersion: v1
metadata:
  name: ${name}
  namespace: ${namespace}
  labels:
    openshift.io/control-plane: "true"
    openshift.io/component: "${container === 'kube-apiserver' ? 'api' : container.replace('kube-', '')}"
  annotations:
    openshift.io/run-level: "0"
    kubectl.kubernetes.io/default-logs-container: ${container}
spec:
  restartPolicy: Always
  hostNetwork: true
  priorityClassName: system-node-critical
  containers:
  - name: ${container}
    image: ${img}
    imagePullPolicy: IfNotPresent
    terminationMessagePolicy: FallbackToLogsOnError
    command: [ "/bin/bash", "-ec" ]
    args:
    - >
      ${command}
    resources:
      requests:
        memory: 50Mi
        cpu: 5m
    volumeMounts:
${volumes.map(([n, p]) => `    - mountPath: ${p}\n      name: ${n}`).join('\n')}
    livenessProbe:
      httpGet:
        scheme: HTTPS
        port: ${port}
        path: healthz
      initialDelaySeconds: 45
      timeoutSeconds: 10
  volumes:
${volumes.map(([n, p]) => `  - hostPath:\n      path: ${p === '/etc/kubernetes/secrets' ? '/etc/kubernetes/bootstrap-secrets' : p}\n    name: ${n}`).join('\n')}
`;
}

export function kubeApiserverPod(w: World): string {
  return controlPlanePod(w, 'bootstrap-kube-apiserver', 'openshift-kube-apiserver', 'kube-apiserver', 'hyperkube kube-apiserver --openshift-config=/etc/kubernetes/config/config.yaml --v=2 --advertise-address=${HOST_IP}', 6443, [
    ['secrets', '/etc/kubernetes/secrets'],
    ['config', '/etc/kubernetes/config'],
    ['logs', '/var/log/bootstrap-control-plane'],
    ['audit-dir', '/var/log/kube-apiserver'],
  ]);
}

export function kcmPod(w: World): string {
  return controlPlanePod(w, 'bootstrap-kube-controller-manager', 'kube-system', 'kube-controller-manager', 'exec hyperkube kube-controller-manager --openshift-config=/etc/kubernetes/config/kube-controller-manager-config.yaml --kubeconfig=/etc/kubernetes/secrets/kubeconfig --v=2', 10257, [
    ['secrets', '/etc/kubernetes/secrets'],
    ['config', '/etc/kubernetes/config'],
    ['logs', '/var/log/bootstrap-control-plane'],
  ]);
}

export function schedulerPod(w: World): string {
  return controlPlanePod(w, 'bootstrap-kube-scheduler', 'kube-system', 'kube-scheduler', 'exec hyperkube kube-scheduler --config=/etc/kubernetes/config/kube-scheduler-config.yaml --v=2', 10259, [
    ['secrets', '/etc/kubernetes/secrets'],
    ['config', '/etc/kubernetes/config'],
    ['logs', '/var/log/bootstrap-control-plane'],
  ]);
}

export function mcoBootstrapPod(w: World): string {
  const img = w.release.images['machine-config-operator'];
  return `apiVersion: v1
kind: Pod
metadata:
  name: bootstrap-machine-config-operator
  namespace: openshift-machine-config-operator
spec:
  initContainers:
  - name: machine-config-controller
    image: ${img}
    command: ["/usr/bin/machine-config-controller"]
    args:
    - "bootstrap"
    - "--manifest-dir=/etc/mcc/bootstrap"
    - "--dest-dir=/etc/mcs/bootstrap"
    - "--pull-secret=/etc/mcc/bootstrap/machineconfigcontroller-pull-secret"
    - "--payload-version=${w.release.version}"
    resources:
      limits:
        memory: 50Mi
    volumeMounts:
    - name: bootstrap-manifests
      mountPath: /etc/mcc/bootstrap
    - name: server-basedir
      mountPath: /etc/mcs/bootstrap
  containers:
  - name: machine-config-server
    image: ${img}
    command: ["/usr/bin/machine-config-server"]
    args:
      - "bootstrap"
      - "--bootstrap-kubeconfig=/etc/mcs/kubeconfig"
    volumeMounts:
    - name: server-certs
      mountPath: /etc/ssl/mcs
    - name: bootstrap-kubeconfig
      mountPath: /etc/mcs/kubeconfig
    - name: server-basedir
      mountPath: /etc/mcs/bootstrap
  hostNetwork: true
  tolerations:
    - key: node-role.kubernetes.io/master
      operator: Exists
      effect: NoSchedule
  restartPolicy: Always
  volumes:
  - name: server-certs
    hostPath:
      path: /etc/ssl/mcs
  - name: bootstrap-kubeconfig
    hostPath:
      path: /etc/mcs/kubeconfig
  - name: server-basedir
    hostPath:
      path: /etc/mcs/bootstrap
  - name: bootstrap-manifests
    hostPath:
      path: /etc/mcc/bootstrap
`;
}

export function cvoBootstrapPod(w: World): string {
  return `apiVersion: v1
kind: Pod
metadata:
  name: bootstrap-cluster-version-operator
  namespace: openshift-cluster-version
  labels:
    k8s-app: cluster-version-operator
spec:
  containers:
  - name: cluster-version-operator
    image: '${w.release.releaseImage}'
    imagePullPolicy: IfNotPresent
    args:
      - "start"
      - "--release-image=${w.release.releaseImage}"
      - "--enable-auto-update=false"
      - "--listen="
      - "--v=2"
      - "--kubeconfig=/etc/kubernetes/kubeconfig"
    securityContext:
      privileged: true
    terminationMessagePolicy: FallbackToLogsOnError
    volumeMounts:
      - mountPath: /etc/ssl/certs
        name: etc-ssl-certs
        readOnly: true
      - mountPath: /etc/kubernetes/kubeconfig
        name: kubeconfig
        readOnly: true
    env:
      - name: KUBERNETES_SERVICE_PORT # allows CVO to communicate with apiserver directly on same host.
        value: "6443"
      - name: KUBERNETES_SERVICE_HOST # allows CVO to communicate with apiserver directly on same host.
        value: "127.0.0.1"
      - name: NODE_NAME
        valueFrom:
          fieldRef:
            fieldPath: spec.nodeName
      - name: CLUSTER_PROFILE
        value: self-managed-high-availability
  hostNetwork: true
  terminationGracePeriodSeconds: 130
  volumes:
    - name: kubeconfig
      hostPath:
        path: /etc/kubernetes/kubeconfig
    - name: etc-ssl-certs
      hostPath:
        path: /etc/ssl/certs
`;
}
