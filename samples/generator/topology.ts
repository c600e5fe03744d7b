// Derives the world of a scenario: host names and addresses as each platform names them,
// MACs, boot ids, cluster and infrastructure ids, VIPs, times and the gather id.
import { Prng } from './prng.js';
import { profileFor, releaseInfo } from './release.js';
import { gatherId, MINUTE, parseIso, SECOND } from './time.js';
import type { HostInfo, ScenarioSpec, World } from './model.js';

function hostName(spec: ScenarioSpec, role: HostInfo['role'], index: number, ip: string, infraId: string, style: number): { hostname: string; nodeName: string } {
  const domain = `${spec.clusterName}.${spec.baseDomain}`;
  const label = role === 'bootstrap' ? 'bootstrap' : `${role}-${index}`;
  switch (spec.platform) {
    case 'aws': {
      const short = `ip-${ip.replace(/\./g, '-')}`;
      return { hostname: short, nodeName: `${short}.${['us-east-2', 'eu-west-1', 'ap-southeast-2'][style % 3]}.compute.internal` };
    }
    case 'vsphere':
      return { hostname: `${infraId}-${label}`, nodeName: `${infraId}-${label}` };
    default: {
      // UPI and bare metal: names from DHCP/DNS, styles vary between sites.
      const n = role === 'bootstrap' ? 'bootstrap' : style % 2 === 0 ? `${role}-${index}` : `${role}${index + 1}`;
      return { hostname: `${n}.${domain}`, nodeName: `${n}.${domain}` };
    }
  }
}

function mac(prng: Prng, platform: ScenarioSpec['platform']): string {
  const oui = platform === 'vsphere' ? '00:50:56' : platform === 'aws' ? `0a:${prng.hex(2)}:${prng.hex(2)}` : '52:54:00';
  return `${oui}:${prng.hex(2)}:${prng.hex(2)}:${prng.hex(2)}`;
}

function iface(platform: ScenarioSpec['platform']): string {
  return platform === 'vsphere' ? 'ens192' : platform === 'aws' ? 'ens5' : 'enp1s0';
}

export function buildWorld(spec: ScenarioSpec): World {
  const prng = new Prng(spec.seed);
  const p = prng.fork('topology');
  const release = releaseInfo(spec.version, prng.fork('release'));
  const profile = profileFor(release.minor);
  const net = spec.machineCidr.split('/')[0].split('.').slice(0, 3).join('.');
  const infraId = `${spec.clusterName}-${p.alnum(5)}`;
  const style = p.int(0, 5);
  const t0 = parseIso(spec.start) + p.int(0, 999_999);
  const host = (role: HostInfo['role'], index: number, octet: number): HostInfo => {
    const ip = `${net}.${octet}`;
    const names = hostName(spec, role, index, ip, infraId, style);
    const hp = p.fork(`${role}-${index}`);
    return {
      role,
      index,
      ip,
      ...names,
      mac: mac(hp, spec.platform),
      iface: iface(spec.platform),
      bootId: hp.hex(32),
      earlierBoots: [hp.hex(32), hp.hex(32)],
      clockOffset: 0,
      pids: {},
    };
  };
  const masters = spec.hosts.masters.map((o, i) => host('master', i, o));
  // Bootstrap in place: the bootstrap phase runs on the single node itself.
  const bootstrap = spec.masterLayout === 'single-node' ? { ...host('bootstrap', 0, spec.hosts.bootstrap), hostname: masters[0].hostname, nodeName: masters[0].nodeName, mac: masters[0].mac } : host('bootstrap', 0, spec.hosts.bootstrap);
  const workers = spec.hosts.workers.map((o, i) => host('worker', i, o));
  const gatherAt = t0 + spec.gatherAfterMinutes * MINUTE + p.int(0, 59) * SECOND;
  const vipOctet = spec.platform === 'aws' ? 0 : p.pick([5, 10, 250, 200]);
  return {
    spec,
    prng,
    release,
    profile,
    clusterDomain: `${spec.clusterName}.${spec.baseDomain}`,
    infraId,
    clusterId: p.uuid(),
    apiName: `api.${spec.clusterName}.${spec.baseDomain}`,
    apiIntName: `api-int.${spec.clusterName}.${spec.baseDomain}`,
    apiVip: vipOctet ? `${net}.${vipOctet}` : `${net}.${p.int(20, 90)}`,
    ingressVip: vipOctet ? `${net}.${vipOctet + 1}` : `${net}.${p.int(100, 140)}`,
    gateway: `${net}.1`,
    dnsServer: spec.dnsServer ?? (spec.platform === 'aws' ? `${net.split('.').slice(0, 2).join('.')}.0.2` : p.pick([`${net}.1`, `${net}.2`, `${net}.53`])),
    prefix: Number(spec.machineCidr.split('/')[1] ?? 24),
    bootstrap,
    masters,
    workers,
    t0,
    gatherAt,
    gatherId: gatherId(gatherAt),
    installerClockOffset: 0,
  };
}

/** All hosts that have journals in the bundle. */
export function allHosts(w: World): HostInfo[] {
  return [w.bootstrap, ...w.masters, ...w.workers];
}
