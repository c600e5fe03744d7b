// Reads static pod manifests (YAML `Pod` objects, e.g. the bootstrap's etcd and kube-apiserver pods).
import type { HostPathVolume, PodContainerSpec, SourceRef, StaticPod } from '../model/types.js';
import { parsed, type Parsed, type ParseProblem } from './parsed.js';
import { clip, splitLines, stripBom } from './text-input.js';
import { DATA_YAML_LIMITS, loadYamlStream, YamlError, yamlErrorAt, type YamlLimits } from './yaml-document.js';
import { type JsonObject, get, isObject, str } from './json-fields.js';

const DOC_SEPARATOR_RE = /^---(?:[ \t].*)?$/;

interface YamlChunk {
  text: string;
  /** 1-based line of the chunk's first line in the file. */
  firstLine: number;
  /** 1-based line of its first line that is not blank or a comment. */
  contentLine?: number;
}

/**
 * Splits a YAML stream at `---` lines so one broken document cannot hide the others (js-yaml
 * reads a stream all or nothing). `---` at column 0 always starts a document: block scalars
 * are indented, so it cannot be part of one.
 */
function splitDocuments(text: string): YamlChunk[] {
  const lines = splitLines(text);
  const chunks: YamlChunk[] = [];
  let current: string[] = [];
  let firstLine = 1;
  let contentLine: number | undefined;
  const flush = (): void => {
    if (contentLine !== undefined) chunks.push({ text: current.join('\n'), firstLine, contentLine });
  };
  lines.forEach((line, i) => {
    if (DOC_SEPARATOR_RE.test(line)) {
      flush();
      // Keep the separator line so `--- |` style content and line offsets stay right.
      current = [line];
      firstLine = i + 1;
      contentLine = undefined;
      const rest = line.slice(3).trim();
      if (rest !== '' && !rest.startsWith('#')) contentLine = i + 1;
      return;
    }
    current.push(line);
    const t = line.trim();
    if (contentLine === undefined && t !== '' && !t.startsWith('#') && t !== '...') contentLine = i + 1;
  });
  flush();
  return chunks;
}

/** YAML scalars in command/args may be numbers or booleans (`- 10`); keep them as text. */
function strings(obj: unknown, key: string): string[] {
  const v = get(obj, key);
  if (!Array.isArray(v)) return [];
  const out: string[] = [];
  for (const item of v) {
    if (typeof item === 'string') out.push(item);
    else if (typeof item === 'number' || typeof item === 'boolean') out.push(String(item));
  }
  return out;
}

function containers(spec: unknown, key: string): PodContainerSpec[] {
  const list = get(spec, key);
  if (!Array.isArray(list)) return [];
  const out: PodContainerSpec[] = [];
  for (const c of list) {
    if (!isObject(c)) continue;
    // Only the fields below: env, volumeMounts and the rest may carry secrets and are not kept.
    const container: PodContainerSpec = { name: str(c, 'name') ?? '', command: strings(c, 'command'), args: strings(c, 'args') };
    const image = str(c, 'image');
    if (image !== undefined) container.image = image;
    out.push(container);
  }
  return out;
}

function hostPaths(spec: unknown): HostPathVolume[] {
  const volumes = get(spec, 'volumes');
  if (!Array.isArray(volumes)) return [];
  const out: HostPathVolume[] = [];
  for (const v of volumes) {
    const path = str(get(v, 'hostPath'), 'path');
    if (path !== undefined) out.push({ name: str(v, 'name') ?? '', path });
  }
  return out;
}

/**
 * Parses every `kind: Pod` document of a YAML file (one or many documents). Other documents are
 * ignored without a problem; a document that is not valid YAML becomes a problem at its line.
 */
export function parseStaticPods(text: string, source: SourceRef, limits: YamlLimits = DATA_YAML_LIMITS): Parsed<StaticPod[]> {
  const body = stripBom(text);
  if (body.trim() === '') return parsed([], [{ kind: 'empty', message: 'manifest file is empty' }]);
  const pods: StaticPod[] = [];
  const problems: ParseProblem[] = [];
  for (const chunk of splitDocuments(body)) {
    let docs: unknown[];
    try {
      docs = loadYamlStream(chunk.text, limits);
    } catch (e) {
      const at = yamlErrorAt(e);
      const limit = e instanceof YamlError;
      problems.push({
        kind: limit ? 'limit' : 'unparseable',
        message: clip(limit ? `YAML not parsed: ${at.reason}` : `invalid YAML: ${at.reason}`),
        line: at.line === undefined ? chunk.contentLine : chunk.firstLine + at.line - 1,
      });
      continue;
    }
    for (const doc of docs) {
      if (get(doc, 'kind') !== 'Pod') continue;
      const metadata = get(doc, 'metadata');
      const spec = get(doc, 'spec');
      const name = str(metadata, 'name');
      if (name === undefined) {
        problems.push({ kind: 'unparseable', message: 'Pod without metadata.name', line: chunk.contentLine });
      }
      const pod: StaticPod = {
        source: { file: source.file, line: chunk.contentLine },
        name: name ?? '',
        containers: containers(spec, 'containers'),
        initContainers: containers(spec, 'initContainers'),
        hostPaths: hostPaths(spec),
        hostNetwork: get(spec, 'hostNetwork') === true,
      };
      const namespace = str(metadata, 'namespace');
      if (namespace !== undefined) pod.namespace = namespace;
      pods.push(pod);
    }
  }
  return parsed(pods, problems);
}
