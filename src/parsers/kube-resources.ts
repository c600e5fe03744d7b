// Parsers for `resources/*` of a log bundle: the `oc get <kind> -o json` Lists and the plain name lists that installer-gather.sh writes when the bootstrap API answers.
import type {
  ApiServiceResource,
  ClusterOperatorResource,
  ClusterVersionResource,
  Condition,
  ContainerStatusResource,
  CsrResource,
  CsrState,
  EventResource,
  MachineConfigPoolResource,
  MachineResource,
  NodeResource,
  PodResource,
  ResourceFileStatus,
  SourceRef,
} from '../model/types.js';
import { parsed, type Parsed } from './parsed.js';
import { clip, ProblemList, splitLines, stripBom } from './text-input.js';
import { parseIsoTime } from '../text/time.js';
import { type JsonObject, get, isObject } from './json-fields.js';

function getObject(obj: unknown, key: string): JsonObject | undefined {
  const v = get(obj, key);
  return isObject(v) ? v : undefined;
}

function getArray(obj: unknown, key: string): unknown[] {
  const v = get(obj, key);
  return Array.isArray(v) ? v : [];
}

function getString(obj: unknown, key: string): string | undefined {
  const v = get(obj, key);
  return typeof v === 'string' ? v : undefined;
}

/** A non-empty string, for fields where `""` means unset. */
function getText(obj: unknown, key: string): string | undefined {
  const v = getString(obj, key);
  return v === undefined || v === '' ? undefined : v;
}

function getNumber(obj: unknown, key: string): number | undefined {
  const v = get(obj, key);
  return typeof v === 'number' && Number.isFinite(v) ? v : undefined;
}

function getTime(obj: unknown, key: string): number | undefined {
  return parseIsoTime(getString(obj, key));
}

/** The first line of `text`, trimmed and cut at the message limit; never splits the whole text. */
function firstLine(text: string): string {
  const nl = text.indexOf('\n');
  return clip((nl < 0 ? text : text.slice(0, nl)).trim());
}

// Control characters other than tab/CR/LF, or the replacement character: the bytes were not
// text (a gzip stream, a half-written file), so this is not a message `oc` printed.
const BINARY_RE = /[\u0000-\u0008\u000e-\u001f\ufffd]/;

function countItems(json: unknown): number | undefined {
  if (Array.isArray(json)) return json.length;
  const items = get(json, 'items');
  if (Array.isArray(items)) return items.length;
  // A single object (`oc get clusterversion version -o json`) counts as one item.
  return isObject(json) && typeof get(json, 'kind') === 'string' ? 1 : undefined;
}

function tryParse(text: string): { ok: true; json: unknown } | { ok: false; error: string } {
  try {
    return { ok: true, json: JSON.parse(text) as unknown };
  } catch (e) {
    return { ok: false, error: e instanceof Error ? e.message : String(e) };
  }
}

/**
 * Tells what a `resources/*.json` file holds: nothing (`empty`: the script only redirects
 * stdout, so an unreachable API leaves the file empty), the message `oc` printed instead of
 * JSON (`error`, first line, at most 300 characters), broken JSON (`unparseable`) or a
 * document (`ok`, with the item count and the parsed JSON for the parse* functions).
 * `too-large` is the caller's to set: it knows the size before reading the text.
 */
export function classifyResourceText(
  text: string,
  source: SourceRef,
  name: string,
): { status: ResourceFileStatus; json?: unknown } {
  const trimmed = stripBom(text).trim();
  if (trimmed === '') return { status: { source, name, status: 'empty' } };
  const first = trimmed.charCodeAt(0);
  if (first === 123 /* { */ || first === 91 /* [ */) {
    const result = tryParse(trimmed);
    if (result.ok) return okStatus(source, name, result.json);
    return { status: { source, name, status: 'unparseable', message: firstLine(`invalid JSON: ${result.error}`) } };
  }
  // With both streams redirected (`>&`, some releases and hand-run gathers) warnings or klog
  // lines can precede the JSON; the document still counts when it parses.
  const jsonStart = trimmed.search(/\n[{[]/);
  if (jsonStart > 0) {
    const result = tryParse(trimmed.slice(jsonStart + 1));
    if (result.ok) return okStatus(source, name, result.json);
  }
  // `trimmed` starts with a non-blank character, so its first line is the message.
  const message = firstLine(trimmed);
  if (BINARY_RE.test(message)) {
    return { status: { source, name, status: 'unparseable', message: 'not text' } };
  }
  return { status: { source, name, status: 'error', message } };
}

function okStatus(source: SourceRef, name: string, json: unknown): { status: ResourceFileStatus; json: unknown } {
  const status: ResourceFileStatus = { source, name, status: 'ok' };
  const items = countItems(json);
  if (items !== undefined) status.items = items;
  return { status, json };
}


/**
 * The entries of a List (`items[]`); a bare array or a single object are read the same way.
 * Anything else yields no entries and a problem.
 */
function listItems(json: unknown, expectedKind: string, problems: ProblemList): unknown[] {
  if (Array.isArray(json)) return json;
  const items = get(json, 'items');
  if (Array.isArray(items)) return items;
  if (isObject(json) && getString(json, 'kind') === expectedKind) return [json];
  problems.add({ kind: 'unparseable', message: `expected a List of ${expectedKind} objects with items[]` });
  return [];
}

/** Runs `read` on each item; an item that is no object, or that `read` cannot use, becomes a problem. */
function parseList<T>(
  json: unknown,
  expectedKind: string,
  read: (item: JsonObject) => T | string,
): Parsed<T[]> {
  const problems = new ProblemList();
  const out: T[] = [];
  listItems(json, expectedKind, problems).forEach((item, i) => {
    if (!isObject(item)) {
      problems.add({ kind: 'unparseable', message: `items[${i}] is not an object` });
      return;
    }
    const result = read(item);
    if (typeof result === 'string') problems.add({ kind: 'unparseable', message: `items[${i}]: ${result}` });
    else out.push(result);
  });
  return parsed(out, problems.done());
}

/**
 * `status.conditions[]`; entries without a string type are skipped. A missing status reads as
 * `missingStatus` (Unknown, the Kubernetes word for "not reported").
 */
function readConditions(owner: unknown, missingStatus = 'Unknown'): Condition[] {
  const out: Condition[] = [];
  for (const c of getArray(getObject(owner, 'status'), 'conditions')) {
    const type = getText(c, 'type');
    if (type === undefined) continue;
    const status = getText(c, 'status') ?? missingStatus;
    const cond: Condition = { type, status };
    const reason = getText(c, 'reason');
    const message = getText(c, 'message');
    const since = getTime(c, 'lastTransitionTime') ?? getTime(c, 'lastUpdateTime');
    if (reason !== undefined) cond.reason = reason;
    if (message !== undefined) cond.message = message;
    if (since !== undefined) cond.lastTransitionTime = since;
    out.push(cond);
  }
  return out;
}

function metaName(item: JsonObject): string | undefined {
  return getText(getObject(item, 'metadata'), 'name');
}

const ROLE_LABEL_PREFIX = 'node-role.kubernetes.io/';

function nodeRoles(labels: JsonObject | undefined): string[] {
  if (!labels) return [];
  const roles = new Set<string>();
  for (const key of Object.keys(labels)) {
    if (key.startsWith(ROLE_LABEL_PREFIX) && key.length > ROLE_LABEL_PREFIX.length) {
      roles.add(key.slice(ROLE_LABEL_PREFIX.length));
    }
  }
  // Clusters from before node-role labels carried `kubernetes.io/role: master`.
  const legacy = getText(labels, 'kubernetes.io/role');
  if (legacy !== undefined) roles.add(legacy);
  return [...roles].sort();
}

/** `key=value:Effect`, as `oc describe node` prints taints. */
function taintText(taint: unknown): string | undefined {
  const key = getText(taint, 'key');
  if (key === undefined) return undefined;
  const value = getText(taint, 'value');
  const effect = getText(taint, 'effect');
  return `${key}${value !== undefined ? `=${value}` : ''}${effect !== undefined ? `:${effect}` : ''}`;
}

/** Parses `oc get nodes -o json`: roles from `node-role.kubernetes.io/<role>` labels, Ready, addresses, taints. */
export function parseNodes(json: unknown, source: SourceRef): Parsed<NodeResource[]> {
  return parseList<NodeResource>(json, 'Node', (item) => {
    const name = metaName(item);
    if (name === undefined) return 'node without metadata.name';
    const metadata = getObject(item, 'metadata');
    const status = getObject(item, 'status');
    const conditions = readConditions(item);
    const readyStatus = conditions.find((c) => c.type === 'Ready')?.status;
    const node: NodeResource = {
      source,
      name,
      roles: nodeRoles(getObject(metadata, 'labels')),
      ready: readyStatus === 'True' || readyStatus === 'False' ? readyStatus : 'Unknown',
      conditions,
      addresses: [],
      taints: [],
    };
    for (const a of getArray(status, 'addresses')) {
      const type = getText(a, 'type');
      const address = getText(a, 'address');
      if (type !== undefined && address !== undefined) node.addresses.push({ type, address });
    }
    for (const t of getArray(getObject(item, 'spec'), 'taints')) {
      const text = taintText(t);
      if (text !== undefined) node.taints.push(text);
    }
    const kubeletVersion = getText(getObject(status, 'nodeInfo'), 'kubeletVersion');
    const created = getTime(metadata, 'creationTimestamp');
    if (kubeletVersion !== undefined) node.kubeletVersion = kubeletVersion;
    if (created !== undefined) node.created = created;
    return node;
  });
}

function csrState(conditions: Condition[], issued: boolean): CsrState {
  const isTrue = (type: string): boolean => conditions.some((c) => c.type === type && c.status === 'True');
  if (isTrue('Denied')) return 'Denied';
  // A signer that could not sign sets Failed on an approved request: Failed wins.
  if (isTrue('Failed')) return 'Failed';
  if (isTrue('Approved')) return issued ? 'Issued' : 'Approved';
  return 'Pending';
}

/**
 * Parses `oc get csr -o json`. State: Denied, Failed, Approved with a certificate → Issued,
 * Approved without → Approved, else Pending. The request PEM and the certificate are never kept.
 */
export function parseCsrs(json: unknown, source: SourceRef): Parsed<CsrResource[]> {
  return parseList<CsrResource>(json, 'CertificateSigningRequest', (item) => {
    const name = metaName(item);
    if (name === undefined) return 'CSR without metadata.name';
    const spec = getObject(item, 'spec');
    // certificates/v1beta1 conditions had no status; the v1 API defaults it to True.
    const conditions = readConditions(item, 'True');
    // Only whether a certificate was issued matters; its bytes are not read further.
    const issued = getText(getObject(item, 'status'), 'certificate') !== undefined;
    const csr: CsrResource = { source, name, state: csrState(conditions, issued), conditions };
    const requestor = getText(spec, 'username');
    const signerName = getText(spec, 'signerName');
    const created = getTime(getObject(item, 'metadata'), 'creationTimestamp');
    if (requestor !== undefined) csr.requestor = requestor;
    if (signerName !== undefined) csr.signerName = signerName;
    if (created !== undefined) csr.created = created;
    return csr;
  });
}

/** Parses `oc get clusteroperators -o json`: conditions and operand versions of each operator. */
export function parseClusterOperators(json: unknown, source: SourceRef): Parsed<ClusterOperatorResource[]> {
  return parseList<ClusterOperatorResource>(json, 'ClusterOperator', (item) => {
    const name = metaName(item);
    if (name === undefined) return 'ClusterOperator without metadata.name';
    const versions: ClusterOperatorResource['versions'] = [];
    for (const v of getArray(getObject(item, 'status'), 'versions')) {
      const vName = getText(v, 'name');
      const version = getText(v, 'version');
      if (vName !== undefined && version !== undefined) versions.push({ name: vName, version });
    }
    return { source, name, conditions: readConditions(item), versions };
  });
}

/**
 * Parses `oc get apiservices -o json`: each aggregated API, the service behind it and its
 * conditions (`Available=False` with `FailedDiscoveryCheck` or `MissingEndpoints` when the API
 * server cannot reach it).
 */
export function parseApiServices(json: unknown, source: SourceRef): Parsed<ApiServiceResource[]> {
  return parseList<ApiServiceResource>(json, 'APIService', (item) => {
    const name = metaName(item);
    if (name === undefined) return 'APIService without metadata.name';
    const api: ApiServiceResource = { source, name, conditions: readConditions(item) };
    const service = getObject(getObject(item, 'spec'), 'service');
    const ns = getText(service, 'namespace');
    const svc = getText(service, 'name');
    if (ns !== undefined && svc !== undefined) api.service = `${ns}/${svc}`;
    return api;
  });
}

/**
 * Parses `oc get machineconfigpools -o json`: each pool's conditions (Updated, Updating,
 * Degraded, NodeDegraded, RenderDegraded), machine counts and the rendered config it runs.
 */
export function parseMachineConfigPools(json: unknown, source: SourceRef): Parsed<MachineConfigPoolResource[]> {
  return parseList<MachineConfigPoolResource>(json, 'MachineConfigPool', (item) => {
    const name = metaName(item);
    if (name === undefined) return 'MachineConfigPool without metadata.name';
    const status = getObject(item, 'status');
    const pool: MachineConfigPoolResource = { source, name, conditions: readConditions(item) };
    const rendered = getText(getObject(status, 'configuration'), 'name');
    if (rendered !== undefined) pool.renderedConfig = rendered;
    for (const key of ['machineCount', 'readyMachineCount', 'degradedMachineCount'] as const) {
      const n = getNumber(status, key);
      if (n !== undefined) pool[key] = n;
    }
    return pool;
  });
}

const MACHINE_ROLE_LABEL = 'machine.openshift.io/cluster-api-machine-role';

/** Parses `oc get machines -o json`: each Machine's role, phase and the error the machine API recorded. */
export function parseMachines(json: unknown, source: SourceRef): Parsed<MachineResource[]> {
  return parseList<MachineResource>(json, 'Machine', (item) => {
    const name = metaName(item);
    if (name === undefined) return 'Machine without metadata.name';
    const status = getObject(item, 'status');
    const machine: MachineResource = { source, name };
    const role = getText(getObject(getObject(item, 'metadata'), 'labels'), MACHINE_ROLE_LABEL) ?? /-(master|worker|infra)-/.exec(name)?.[1];
    if (role !== undefined) machine.role = role;
    for (const key of ['phase', 'errorReason', 'errorMessage'] as const) {
      const v = getText(status, key);
      if (v !== undefined) machine[key] = v;
    }
    return machine;
  });
}

/** Parses `oc get clusterversion -o json`: desired release, update history and conditions. */
export function parseClusterVersion(json: unknown, source: SourceRef): Parsed<ClusterVersionResource[]> {
  return parseList<ClusterVersionResource>(json, 'ClusterVersion', (item) => {
    const status = getObject(item, 'status');
    const desired = getObject(status, 'desired');
    const cv: ClusterVersionResource = { source, history: [], conditions: readConditions(item) };
    // Before the CVO reports status, only the requested update in spec says what is wanted.
    const requested = getObject(getObject(item, 'spec'), 'desiredUpdate');
    const desiredVersion = getText(desired, 'version') ?? getText(requested, 'version');
    const desiredImage = getText(desired, 'image') ?? getText(requested, 'image');
    if (desiredVersion !== undefined) cv.desiredVersion = desiredVersion;
    if (desiredImage !== undefined) cv.desiredImage = desiredImage;
    for (const h of getArray(status, 'history')) {
      const state = getText(h, 'state');
      if (state === undefined) continue;
      const entry: ClusterVersionResource['history'][number] = { state };
      const version = getText(h, 'version');
      const image = getText(h, 'image');
      const started = getTime(h, 'startedTime');
      const completed = getTime(h, 'completionTime');
      if (version !== undefined) entry.version = version;
      if (image !== undefined) entry.image = image;
      if (started !== undefined) entry.started = started;
      if (completed !== undefined) entry.completed = completed;
      cv.history.push(entry);
    }
    return cv;
  });
}

function containerStatus(cs: unknown): ContainerStatusResource | undefined {
  if (!isObject(cs)) return undefined;
  // A status without its container's name (a transcribed table) still says how the pod fares,
  // when it says anything: a state.
  const name = getText(cs, 'name') ?? (getObject(cs, 'state') || getObject(cs, 'lastState') ? '' : undefined);
  if (name === undefined) return undefined;
  const ready = get(cs, 'ready');
  const out: ContainerStatusResource = {
    name,
    ready: ready === true,
    restartCount: getNumber(cs, 'restartCount') ?? 0,
  };
  const image = getText(cs, 'image');
  const state = getObject(cs, 'state');
  const waiting = getObject(state, 'waiting');
  const terminated = getObject(state, 'terminated');
  const lastTerminated = getObject(getObject(cs, 'lastState'), 'terminated');
  const waitingReason = getText(waiting, 'reason');
  const waitingMessage = getText(waiting, 'message');
  const terminatedReason = getText(terminated, 'reason');
  const lastTerminatedReason = getText(lastTerminated, 'reason');
  const lastExitCode = getNumber(lastTerminated, 'exitCode');
  if (image !== undefined) out.image = image;
  if (waitingReason !== undefined) out.waitingReason = waitingReason;
  if (waitingMessage !== undefined) out.waitingMessage = waitingMessage;
  if (terminatedReason !== undefined) out.terminatedReason = terminatedReason;
  if (lastTerminatedReason !== undefined) out.lastTerminatedReason = lastTerminatedReason;
  if (lastExitCode !== undefined) out.lastExitCode = lastExitCode;
  return out;
}

/**
 * Parses `oc get pods --all-namespaces -o json`: phase, conditions and the status of each
 * (non-init) container. The pod spec (env, command lines) is never read.
 */
export function parsePods(json: unknown, source: SourceRef): Parsed<PodResource[]> {
  return parseList<PodResource>(json, 'Pod', (item) => {
    const metadata = getObject(item, 'metadata');
    const name = getText(metadata, 'name');
    if (name === undefined) return 'pod without metadata.name';
    const status = getObject(item, 'status');
    const pod: PodResource = {
      source,
      namespace: getText(metadata, 'namespace') ?? '',
      name,
      conditions: readConditions(item),
      containers: [],
    };
    const node = getText(getObject(item, 'spec'), 'nodeName');
    const phase = getText(status, 'phase');
    if (node !== undefined) pod.node = node;
    if (phase !== undefined) pod.phase = phase;
    for (const cs of getArray(status, 'containerStatuses')) {
      const c = containerStatus(cs);
      if (c) pod.containers.push(c);
    }
    return pod;
  });
}

/**
 * Parses `oc get events --all-namespaces -o json`. Events written through the events.k8s.io
 * API carry `eventTime` and `series` instead of `firstTimestamp`/`lastTimestamp`/`count`;
 * both forms give count, first and last time.
 */
export function parseEvents(json: unknown, source: SourceRef): Parsed<EventResource[]> {
  return parseList<EventResource>(json, 'Event', (item) => {
    const metadata = getObject(item, 'metadata');
    const series = getObject(item, 'series');
    // core/v1 names the object `involvedObject`; events.k8s.io/v1 names it `regarding`.
    const involved = getObject(item, 'involvedObject') ?? getObject(item, 'regarding');
    const positive = (n: number | undefined): number | undefined => (n !== undefined && n > 0 ? n : undefined);
    const count =
      positive(getNumber(item, 'count')) ??
      positive(getNumber(series, 'count')) ??
      positive(getNumber(item, 'deprecatedCount')) ??
      1;
    const firstTime =
      getTime(item, 'firstTimestamp') ??
      getTime(item, 'deprecatedFirstTimestamp') ??
      getTime(item, 'eventTime') ??
      getTime(metadata, 'creationTimestamp');
    const lastTime =
      getTime(item, 'lastTimestamp') ??
      getTime(series, 'lastObservedTime') ??
      getTime(item, 'deprecatedLastTimestamp') ??
      getTime(item, 'eventTime') ??
      firstTime;
    const event: EventResource = { source, count };
    const namespace = getText(metadata, 'namespace') ?? getText(involved, 'namespace');
    const kind = getText(involved, 'kind');
    const object = getText(involved, 'name');
    const reason = getText(item, 'reason');
    const message = getText(item, 'message') ?? getText(item, 'note');
    const type = getText(item, 'type');
    if (namespace !== undefined) event.namespace = namespace;
    if (kind !== undefined) event.kind = kind;
    if (object !== undefined) event.object = object;
    if (reason !== undefined) event.reason = reason;
    if (message !== undefined) event.message = message;
    if (type !== undefined) event.type = type;
    if (firstTime !== undefined) event.firstTime = firstTime;
    if (lastTime !== undefined) event.lastTime = lastTime;
    return event;
  });
}

// A node name is a DNS subdomain (RFC 1123); gathers run with explicit masters may list IPs,
// including IPv6 ones.
const NODE_NAME_RE = /^(?:[a-z0-9](?:[-a-z0-9.]{0,251}[a-z0-9])?|[0-9a-fA-F:.]+)$/;
// What `oc` prints when the API does not answer (and klog lines it logs before that).
const OC_ERROR_RE = /^(?:error:|Error from server|The connection to the server|Unable to connect to the server|[EWF]\d{4} )/;

/**
 * Parses `nodes.list` / `masters.list` (`oc get nodes -o jsonpath`, one name per line), in
 * order, without duplicates. Lines that are not node names are left out and reported:
 * `api-unavailable` when `oc` printed a connection error there, `unparseable` otherwise.
 */
export function parseNameList(text: string): Parsed<string[]> {
  const names: string[] = [];
  const seen = new Set<string>();
  const problems = new ProblemList();
  splitLines(text).forEach((rawLine, i) => {
    const line = rawLine.trim();
    if (line === '') return;
    if (NODE_NAME_RE.test(line)) {
      if (!seen.has(line)) {
        seen.add(line);
        names.push(line);
      }
      return;
    }
    const kind = OC_ERROR_RE.test(line) ? 'api-unavailable' : 'unparseable';
    problems.add({ kind, message: firstLine(line), line: i + 1 });
  });
  return parsed(names, problems.done((n) => `${n} more lines that are not node names`));
}
