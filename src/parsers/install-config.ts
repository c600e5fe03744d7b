// Reads the install config the installer renders into the bootstrap host's manifests: the
// ConfigMap kube-system/cluster-config-v1 whose `install-config` key holds install-config.yaml
// (openshift/installer pkg/asset/manifests). Only the facts the stage table needs: how many
// control-plane and compute machines were asked for.
import type { InstallConfigFacts, SourceRef } from '../model/types.js';
import { get, int, isObject, str } from './json-fields.js';
import { parsed, type Parsed } from './parsed.js';
import { clip } from './text-input.js';
import { DATA_YAML_LIMITS, loadYamlStream, yamlErrorAt, type YamlLimits } from './yaml-document.js';

/** Cheap test before any YAML is parsed: the file names the ConfigMap and its key. */
export function mayHoldInstallConfig(text: string): boolean {
  return text.includes('cluster-config-v1') && text.includes('install-config');
}

function replicasOf(pool: unknown): number | undefined {
  const n = int(pool, 'replicas');
  return n !== undefined && n >= 0 ? n : undefined;
}

/** The install config's machine counts, or undefined when the file is not cluster-config-v1. */
export function parseInstallConfig(text: string, source: SourceRef, limits: YamlLimits = DATA_YAML_LIMITS): Parsed<InstallConfigFacts | undefined> {
  let docs: unknown[];
  try {
    docs = loadYamlStream(text, limits);
  } catch (e) {
    return parsed(undefined, [{ kind: 'unparseable', message: clip(`invalid YAML: ${yamlErrorAt(e).reason}`) }]);
  }
  const map = docs.find((d) => get(d, 'kind') === 'ConfigMap' && str(get(d, 'metadata'), 'name') === 'cluster-config-v1');
  const raw = str(get(map, 'data'), 'install-config');
  if (raw === undefined) return parsed(undefined);
  let config: unknown;
  try {
    config = loadYamlStream(raw, limits)[0];
  } catch (e) {
    return parsed(undefined, [{ kind: 'unparseable', message: clip(`invalid install-config in cluster-config-v1: ${yamlErrorAt(e).reason}`) }]);
  }
  if (!isObject(config)) return parsed(undefined);
  const facts: InstallConfigFacts = { source };
  const control = replicasOf(get(config, 'controlPlane'));
  if (control !== undefined) facts.controlPlaneReplicas = control;
  const compute = get(config, 'compute');
  if (Array.isArray(compute)) {
    const counts = compute.map(replicasOf);
    if (counts.length > 0 && counts.every((n) => n !== undefined)) facts.computeReplicas = counts.reduce((a, b) => (a ?? 0) + (b ?? 0), 0);
  }
  return parsed(facts);
}
