// Runs one scenario end to end: world, timeline, every writer, the failure's own evidence,
// packaging; writes log-bundle-<ID>.tar.gz (streamed), expected.json and README.md.
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { truncateFile, writeTarGz } from './archive.js';
import { writeBootkube } from './bootkube.js';
import { writeApproveCsr, writeBaremetalUnits, writeCrio, writeCrioConfigure, writeKubelet, writeProgressRecord, writeReleaseImage } from './bootstrap-units.js';
import { writeBootstrapContainers, writeMasterContainers } from './containers.js';
import { FAILURES } from './failures/index.js';
import { packageBundle } from './gather.js';
import { serialConsole, writeMaster } from './masters.js';
import type { CategoryId, ScenarioSpec, StageId } from './model.js';
import { createStory, type Story } from './story.js';
import { buildTimeline } from './timeline.js';
import { gatherId, isoSeconds, SECOND } from './time.js';
import { buildWorld } from './topology.js';

export interface Expected {
  scenario: string;
  description: string;
  stage: StageId | null;
  category: CategoryId | null;
  rules: string[];
  evidence: { file: string; contains: string }[];
  secrets: { file: string; value: string; kind: string }[];
}

export interface GenerateOptions {
  /** Directory the scenario's files go to (created). */
  dir: string;
  /** Multiplies the healthy noise volume. */
  scale: number;
  /** Write expected.json and README.md beside the bundle. */
  docs: boolean;
}

export interface Generated {
  archive: string;
  bytes: number;
  expected: Expected;
}

/** Builds the story of a scenario (all writers run, failure applied). */
export function buildStory(spec: ScenarioSpec, scale: number): Story {
  const failure = FAILURES[spec.failure];
  const w = buildWorld(spec);
  failure.prepare?.(w);
  w.gatherId = gatherId(w.gatherAt + w.installerClockOffset);
  const tl = buildTimeline(w, failure.block, { blockedMasters: failure.blockedMasters, singleNode: failure.singleNode });
  failure.adjust?.(tl, w);
  const s = createStory(w, tl, spec.noise * scale, failure.hooks ?? {});
  writeReleaseImage(s);
  writeCrioConfigure(s);
  writeCrio(s);
  writeKubelet(s);
  writeBootkube(s);
  writeApproveCsr(s);
  writeBaremetalUnits(s);
  writeProgressRecord(s);
  writeBootstrapContainers(s);
  w.masters.forEach((_, i) => {
    writeMaster(s, i);
    writeMasterContainers(s, i);
  });
  if (spec.serialLogs) {
    s.serial.set(`${w.infraId}-bootstrap`, { host: w.bootstrap, name: `${w.infraId}-bootstrap`, log: bootstrapSerial(s) });
    w.masters.forEach((m, i) => {
      const bootAt = w.t0 + (40 + i * 3) * SECOND;
      s.serial.set(`${w.infraId}-master-${i}`, { host: m, name: `${w.infraId}-master-${i}`, log: serialConsole(s, 'master', i, bootAt, tl.masterIgnition[i]) });
    });
  }
  s.cluster.apiAtGather = apiAnswered(s);
  failure.apply(s);
  return s;
}

function apiAnswered(s: Story): boolean {
  const { tl } = s;
  if (s.w.spec.masterLayout === 'single-node') return tl.masterReady[0] !== undefined;
  if (tl.apiUp === undefined || tl.apiUp > tl.gather) return false;
  const tornDown = tl.requiredPodsReady !== undefined && tl.requiredPodsReady <= tl.gather;
  if (!tornDown) return true;
  return tl.masterReady.some((r) => r !== undefined);
}

/** The bootstrap VM's console on AWS: Ignition fetching bootstrap.ign through a pre-signed S3 URL. */
function bootstrapSerial(s: Story): ReturnType<typeof serialConsole> {
  const { w } = s;
  const log = serialConsole(s, 'bootstrap', 0, w.t0 - 35 * SECOND, undefined);
  const p = w.prng.fork('presigned');
  const at = w.t0 - 31 * SECOND;
  const day = isoSeconds(w.t0 - 40 * 60 * SECOND).replace(/[-:]/g, '');
  const keyId = `ASIA${p.alnum(16).toUpperCase()}`;
  const token = `IQoJb3JpZ2luX2VjE${p.bytes(96).toString('base64').replace(/\+/g, '%2B').replace(/\//g, '%2F').replace(/=/g, '%3D')}`;
  const sig = p.hex(64);
  const url = `https://${w.infraId}-bootstrap.s3.us-east-2.amazonaws.com/bootstrap.ign?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=${keyId}%2F${day.slice(0, 8)}%2Fus-east-2%2Fs3%2Faws4_request&X-Amz-Date=${day}&X-Amz-Expires=3600&X-Amz-Security-Token=${token}&X-Amz-SignedHeaders=host&X-Amz-Signature=${sig}`;
  const up = (t: number): string => `[${((t - (w.t0 - 35 * SECOND)) / 1e6).toFixed(6).padStart(12)}]`;
  log.add(at, `${up(at)} ignition[822]: GET ${url}: attempt #1`);
  log.add(at + 400_000, `${up(at + 400_000)} ignition[822]: GET result: OK`);
  const name = `${w.infraId}-bootstrap`;
  s.secrets.push({ host: { serial: name }, rel: '', value: token, kind: 'AWS session token in a pre-signed S3 URL (X-Amz-Security-Token)' });
  s.secrets.push({ host: { serial: name }, rel: '', value: sig, kind: 'AWS request signature (X-Amz-Signature)' });
  return log;
}

function readme(spec: ScenarioSpec, e: Expected, archive: string): string {
  const lines = [
    `# ${spec.name}`,
    '',
    spec.summary,
    '',
    spec.description,
    '',
    `- Release: ${spec.version}; platform: ${spec.platform}; masters: ${spec.hosts.masters.length}; workers: ${spec.hosts.workers.length}`,
    `- Bundle: \`${archive}\`${spec.truncate ? ' (truncated: the archive ends early)' : ''}`,
    `- Expected verdict: stage \`${e.stage ?? 'none (healthy)'}\`, category \`${e.category ?? 'none'}\``,
    '',
    'Decisive evidence:',
    '',
    ...e.evidence.map((x) => `- \`${x.file}\`: \`${x.contains}\``),
  ];
  if (e.secrets.length) lines.push('', 'Secrets a redactor must hide:', '', ...e.secrets.map((x) => `- \`${x.file}\`: ${x.kind}`));
  lines.push('', 'Generated by `npm run samples` (samples/generator); do not edit by hand.', '');
  return lines.join('\n');
}

/** Generates one scenario into `opts.dir`. */
export async function generate(spec: ScenarioSpec, opts: GenerateOptions): Promise<Generated> {
  const s = buildStory(spec, opts.scale);
  const pkg = packageBundle(s);
  mkdirSync(opts.dir, { recursive: true });
  for (const f of readdirSync(opts.dir)) if (/^log-bundle-.*\.tar\.gz$/.test(f)) rmSync(join(opts.dir, f));
  const archive = join(opts.dir, pkg.archiveName);
  let bytes = await writeTarGz(pkg.entries, archive);
  if (spec.truncate) bytes = truncateFile(archive, spec.truncate);
  const expected: Expected = {
    scenario: spec.name,
    description: spec.summary,
    stage: spec.expected.stage,
    category: spec.expected.category,
    rules: [],
    evidence: s.evidence.map((e) => ({ file: pkg.resolve(e), contains: e.contains })),
    secrets: s.secrets.map((x) => ({ file: pkg.resolve(x), value: x.value, kind: x.kind })),
  };
  if (opts.docs) {
    writeFileSync(join(opts.dir, 'expected.json'), `${JSON.stringify(expected, null, 2)}\n`);
    writeFileSync(join(opts.dir, 'README.md'), readme(spec, expected, pkg.archiveName));
  }
  return { archive, bytes, expected };
}
