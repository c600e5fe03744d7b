// Benchmark: peak memory of reading a bundle as its kubelet journal grows (1 MB → 200 MB).
// Each read runs in a child process so its peak RSS is its own. Usage:
//   npm run bench:read            (sizes 1, 50, 200 MB)
//   node dist/bench/read-memory.js 1 10
import { spawnSync } from 'node:child_process';
import { createWriteStream, mkdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as tar from 'tar';
import { readBundle } from '../src/ingest/read-bundle.js';

const ROOT = 'log-bundle-20261122111800';

async function writeJournal(path: string, bytes: number): Promise<number> {
  const out = createWriteStream(path);
  let written = 0;
  let i = 0;
  while (written < bytes) {
    const s = i % 60;
    const m = Math.floor(i / 60) % 60;
    const line = `Nov 22 10:${String(m).padStart(2, '0')}:${String(s).padStart(2, '0')} bootstrap.ocp4.example.com kubelet.sh[2519]: I1122 10:${String(m).padStart(2, '0')}:${String(s).padStart(2, '0')}.${String(i % 1e6).padStart(6, '0')}    2519 kubelet.go:2400] "SyncLoop (PLEG): event for pod" pod="openshift-etcd/etcd-bootstrap-member-${i % 97}" event={"ID":"${(i * 2654435761) % 4294967296}","Type":"ContainerStarted"}\n`;
    if (!out.write(line)) await new Promise<void>((r) => out.once('drain', () => r()));
    written += line.length;
    i++;
  }
  await new Promise<void>((r) => out.end(() => r()));
  return i;
}

async function makeBundle(dir: string, mb: number): Promise<string> {
  const root = join(dir, `${mb}mb`);
  const journals = join(root, ROOT, 'bootstrap', 'journals');
  mkdirSync(journals, { recursive: true });
  await writeJournal(join(journals, 'kubelet.log'), mb * 1024 * 1024);
  const file = join(dir, `bundle-${mb}mb.tar.gz`);
  await tar.c({ cwd: root, file, gzip: true, portable: true }, [ROOT]);
  rmSync(root, { recursive: true, force: true });
  return file;
}

async function child(bundle: string): Promise<void> {
  const start = performance.now();
  const b = await readBundle(bundle);
  const ms = performance.now() - start;
  const lines = b.bootstrap?.journals.kubelet?.lineCount ?? 0;
  process.stdout.write(JSON.stringify({ ms, lines, maxRssMb: process.resourceUsage().maxRSS / 1024 }));
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  if (args[0] === '--child') return child(args[1]);
  const sizes = args.length > 0 ? args.map(Number) : [1, 50, 200];
  const dir = join(tmpdir(), 'bootlens-bench-read');
  mkdirSync(dir, { recursive: true });
  const self = fileURLToPath(import.meta.url);
  console.log('journal MB | bundle MB (gz) | lines      | read s | peak RSS MB');
  for (const mb of sizes) {
    const bundle = await makeBundle(dir, mb);
    const r = spawnSync(process.execPath, [self, '--child', bundle], { encoding: 'utf8' });
    if (r.status !== 0) throw new Error(r.stderr);
    const { ms, lines, maxRssMb } = JSON.parse(r.stdout) as { ms: number; lines: number; maxRssMb: number };
    const gz = statSync(bundle).size / 1024 / 1024;
    console.log(`${String(mb).padStart(10)} | ${gz.toFixed(1).padStart(14)} | ${String(lines).padStart(10)} | ${(ms / 1000).toFixed(2).padStart(6)} | ${maxRssMb.toFixed(0).padStart(11)}`);
    if (!process.env.KEEP) rmSync(bundle, { force: true });
  }
}

await main();
