// What to collect next when the lines name no cause: the bundle file or the command, on which
// host, that shows why a stage did not complete. The catalogue's symptom says it for its message;
// else the stage's own list.
import type { Catalogue } from '../catalogue/types.js';
import type { Finding } from '../result/types.js';
import type { StageId } from '../taxonomy.js';

/** Per stage: where its cause shows (bundle paths as installer-gather.sh writes them, commands). */
const STAGE_COLLECT: Record<StageId, string[]> = {
  'release-image': ['The release-image service journal on the bootstrap host: `journalctl -b -u release-image -u release-image-pivot -u node-image-pull` (bootstrap/journals/release-image.log in the bundle).'],
  'node-runtime': ['The crio, crio-configure and kubelet journals of the bootstrap host (bootstrap/journals/) and `systemctl --failed` there.'],
  render: ["bootkube's journal on the bootstrap host (bootstrap/journals/bootkube.log) and the render containers' logs: `podman ps -a` and `podman logs <name>-render`."],
  'bootstrap-etcd': ["The bootstrap etcd container's log and state: `crictl ps -a --name etcd` and `crictl logs <id>` on the bootstrap host (bootstrap/containers/etcd-*.log)."],
  'bootstrap-control-plane': ["The bootstrap kube-apiserver's container log (bootstrap/containers/kube-apiserver-*.log) and `curl -k https://localhost:6443/readyz` on the bootstrap host."],
  'masters-provision': ["Each master's serial console (the platform's console log: did Ignition fetch its config from api-int:22623?) and its kubelet journal (control-plane/<ip>/journals/kubelet.log); `openshift-install gather bootstrap --master <ip>` collects them."],
  'production-control-plane': ["The masters' kubelet journals and container logs (control-plane/<ip>/), and `oc get pods -A -o wide` with the bundle's kubeconfig."],
  'etcd-scaling': ["The masters' etcd containers (control-plane/<ip>/containers/etcd-*.log) and `oc get etcd cluster -o yaml`, `oc get co etcd -o yaml`."],
  'bootstrap-complete': ["bootkube's journal to its end on the bootstrap host, and `oc get clusterversion -o yaml`."],
  workers: ['`oc get machines -n openshift-machine-api -o wide`, `oc get csr` and the workers\' serial consoles and kubelet journals.'],
  'cluster-operators': ['`oc get co` and `oc get co <name> -o yaml` for each operator not Available, then `oc adm must-gather`.'],
};

/**
 * What to collect next for a failure at `stage` whose cause no line names: what the catalogue
 * says of the symptom the top finding quotes (its rule's entry, or the message the generic
 * reading read), then the stage's own list.
 */
export function collectFor(stage: StageId, root: Finding | undefined, catalogue?: Catalogue): string[] {
  const ids = root ? [root.ruleId, root.captures.signature].filter((x): x is string => x !== undefined) : [];
  const said = ids.flatMap((id) => catalogue?.byId.get(id)?.collect ?? []);
  return [...new Set([...said, ...STAGE_COLLECT[stage]])];
}
